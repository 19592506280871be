import {headersToRecord} from "../utils/headersToRecord.ts";
import {parseRetryAfter} from "../utils/parseRetryAfter.ts";
import type {HttpApiError} from "./HttpApiError.ts";
import {apiErrorFromBody} from "./utils/apiErrorFromBody.ts";

/**
 * Turns a non-2xx response into an ApiError (spec §7), whatever its body: the `{error: {...}}`
 * envelope, the `{detail: [...]}` 422 body of `/v1/systemone`, or a 5xx with no JSON at all.
 * Status and `Retry-After` (seconds or HTTP date, as seconds) are always kept: retries decide on them.
 */
export async function readApiError(response: Response, now: number = Date.now()): Promise<HttpApiError> {
    const text = await readTextQuietly(response);
    return apiErrorFromBody({
        status: response.status,
        statusLine: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
        json: parseJson(text),
        text,
        headers: headersToRecord(response.headers),
        retryAfter: parseRetryAfter(response.headers.get("retry-after"), now) ?? undefined
    });
}

async function readTextQuietly(response: Response): Promise<string> {
    try {
        return await response.text();
    } catch {
        // The body broke off; the status alone still classifies the error.
        return "";
    }
}

function parseJson(text: string): unknown {
    if (!text.trim()) return undefined;
    try {
        return JSON.parse(text);
    } catch {
        return undefined;
    }
}
