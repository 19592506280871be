import type {JsonBody} from "../../../client/sdk/index.ts";

export type RunStatus = "idle" | "running" | "done" | "stopped" | "error";

/** An API error as the server returned it (spec §7), or a transport failure; plain data, so history can keep it. */
export type ErrorInfo = {
    status?: number,
    code?: string,
    type?: string,
    message: string,
    param?: string | null,
    /** The response body as received (JSON, text, or null). */
    body?: unknown
};

export type RunTiming = {
    /** `Server-Timing` of the response: server time until headers (streams: before the first token). */
    serverTimingMs?: number | null,
    /** Client-measured: until the response headers and first bytes. */
    firstByteMs?: number,
    /** Client-measured: until the first content, reasoning or tool-call text. */
    firstTokenMs?: number,
    totalMs?: number,
    attempts?: number
};

export type RunState = {
    status: RunStatus,
    /** The body that was sent; View code shows the draft, this is what the reply belongs to. */
    request?: JsonBody,
    connectionName?: string,
    error?: ErrorInfo,
    timing: RunTiming,
    /** "retrying in 1.2 s (HTTP 503)" while the client backs off. */
    note?: string
};

export const idleRun = (): RunState => ({status: "idle", timing: {}});
