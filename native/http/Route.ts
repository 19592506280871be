import type {ErrorFormatter} from "./formatError.ts";
import type {RequestContext} from "./RequestContext.ts";

/** One endpoint: `{modelSegment}{path}`, e.g. `svc-1` + `/v1/chat/completions`. */
export type Route = {
    method: "GET" | "POST",
    model: string,
    path: string,
    /** Body size limit in bytes (spec §8); POST only. */
    maxBodyBytes?: number,
    /** How this endpoint family writes errors; the OpenAI envelope when absent. */
    formatError?: ErrorFormatter,
    handle(context: RequestContext, body: unknown): Promise<void>
};
