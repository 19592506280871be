/**
 * A request that got no HTTP answer: the connection failed (`network`), the client's own timeout fired
 * (`timeout`), or a stream broke off before its end (`interrupted`). Spec §7 treats the first two as
 * transient; an interrupted stream is not retried because its first bytes were already delivered.
 */
export class TransportError extends Error {
    public readonly kind: "network" | "timeout" | "interrupted";

    public constructor(kind: TransportError["kind"], message: string, options: {cause?: unknown} = {}) {
        super(message, options.cause === undefined ? undefined : {cause: options.cause});
        this.name = "TransportError";
        this.kind = kind;
    }
}
