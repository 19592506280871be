import {invalidResponse} from "../errors/invalidResponse.ts";
import {headersToRecord} from "../utils/headersToRecord.ts";

/** Reads a 2xx body as JSON; a body that is not JSON is a protocol error, not a retryable one. */
export async function readJsonBody(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
        return JSON.parse(text);
    } catch {
        throw invalidResponse(response.status, `Expected a JSON body, got: ${text.slice(0, 200) || "(empty)"}`, text, headersToRecord(response.headers));
    }
}
