// Public API of the client room: everything a renderer or script needs to talk to a svc server.
export {SvcClient} from "./SvcClient.ts";
export {SvcStream} from "./SvcStream.ts";
export {apiPaths} from "./apiPaths.ts";
export type {ChatCompletionBody, ClientResult, CompletionBody, FetchLike, JsonBody, RequestOptions, ResponseMeta, ResponsesBody, StreamOptions, SvcClientOptions} from "./types.ts";
export {ApiError} from "../protocol/errors.ts";
export {HttpApiError} from "./errors/HttpApiError.ts";
export {TransportError} from "./errors/TransportError.ts";
export {readApiError} from "./errors/readApiError.ts";
export {retryPolicy, type RetryDecision, type RetryOptions, type RetryPolicy} from "./retry/retryPolicy.ts";
export {withRetry} from "./retry/withRetry.ts";
export {parseSse, sseDoneSentinel, type ParsedSseEvent, type ParseSseOptions} from "./sse/parseSse.ts";
export {SseEventDecoder, type SseEvent} from "./sse/SseEventDecoder.ts";
export {parseServerTiming} from "./utils/parseServerTiming.ts";
export {parseRetryAfter} from "./utils/parseRetryAfter.ts";
