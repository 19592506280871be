// The SSE reader lives in base/common (the upstream front in native/ reads streams with it too).
export {readChunks, SseEventDecoder, sseDoneSentinel, parseSse, type SseEvent, type ParsedSseEvent, type ParseSseOptions} from "../../base/common/sse.ts";
