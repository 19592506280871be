import type {IncomingMessage, ServerResponse} from "node:http";

/** What a handler knows about the exchange it serves: the raw pair, its timing start, trace id and abort signal. */
export type RequestContext = {
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    /** `performance.now()` when the request arrived; Server-Timing measures from here. */
    startedAt: number,
    traceId?: string,
    /** Aborted when the client goes away, so generation stops instead of running for nobody. */
    signal: AbortSignal,
    /** Path segment naming the model, e.g. `svc-1`. */
    modelSegment: string
};
