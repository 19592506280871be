import type {CompletionUsage, SamplingParams} from "../chat/types.ts";

/** A legacy `POST /completions` request after validation: prompts as a list, the budget resolved. */
export type CompletionRequest = SamplingParams & {
    model: string,
    prompts: string[],
    maxTokens: number,
    maxTokensExplicit: boolean,
    n: number,
    echo: boolean,
    stream: boolean,
    stream_options?: {include_usage?: boolean}
};

export type TextCompletion = {
    id: string,
    object: "text_completion",
    created: number,
    model: string,
    choices: Array<{index: number, text: string, finish_reason: "stop" | "length" | null, logprobs: null}>,
    usage?: CompletionUsage | null
};
