import type {ResponseMeta} from "../types.ts";
import {headersToRecord} from "./headersToRecord.ts";
import {parseServerTiming} from "./parseServerTiming.ts";

/** The meta a UI shows next to a result; `startedAt` is a `performance.now()` reading. */
export function responseMeta(response: Response, attempts: number, startedAt: number): ResponseMeta {
    return {
        status: response.status,
        serverTimingMs: parseServerTiming(response.headers.get("server-timing")),
        traceId: response.headers.get("x-client-trace-id"),
        headers: headersToRecord(response.headers),
        attempts,
        durationMs: performance.now() - startedAt
    };
}
