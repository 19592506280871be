/**
 * No attempt produced JSON that keeps the `response_format` contract (spec 2.7.5). It carries the output tokens
 * those attempts spent, because the 400 reports them in `usage` and they are charged.
 */
export class UnsatisfiedFormatError extends Error {
    public readonly completionTokens: number;
    public readonly reasoningTokens: number;

    public constructor(reason: string, {completionTokens, reasoningTokens}: {completionTokens: number, reasoningTokens: number}) {
        super(`response_format could not be satisfied: ${reason}`);
        this.name = "UnsatisfiedFormatError";
        this.completionTokens = completionTokens;
        this.reasoningTokens = reasoningTokens;
    }
}
