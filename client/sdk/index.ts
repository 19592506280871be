

// Public API of the client room: everything a renderer or script needs to talk to a svc server.
export {SvcClient} from "./SvcClient.ts";
export {SvcStream} from "./SvcClient.ts";
export {apiPaths} from "./SvcClient.ts";
export type {ChatCompletionBody, ClientResult, CompletionBody, FetchLike, JsonBody, RequestOptions, ResponseMeta, ResponsesBody, StreamOptions, SvcClientOptions} from "./SvcClient.ts";
export {ApiError} from "../../protocol/errors.ts";
export {HttpApiError} from "./errors.ts";
export {TransportError} from "./errors.ts";
export {readApiError} from "./errors.ts";
export {retryPolicy, type PaceTicket, type RequestPacer, type RetryDecision, type RetryOptions, type RetryPolicy} from "./retry.ts";
export {withRetry} from "./retry.ts";
export {parseSse, sseDoneSentinel, type ParsedSseEvent, type ParseSseOptions} from "../../base/common/sse.ts";
export {SseEventDecoder, type SseEvent} from "../../base/common/sse.ts";
export {parseServerTiming} from "./http.ts";
export {parseRetryAfter} from "../../base/common/retryAfter.ts";
