import {TransportError} from "../errors/TransportError.ts";
import {invalidResponse} from "../errors/invalidResponse.ts";
import {headersToRecord} from "../utils/headersToRecord.ts";

export type OpenedStream = {reader: ReadableStreamDefaultReader<Uint8Array>, first: Uint8Array};

/**
 * Reads a stream's first bytes; until they arrive the stream counts as not started, so a broken or
 * empty body is a transient network failure that may be retried (after them, nothing is retried).
 */
export async function readFirstBytes(response: Response): Promise<OpenedStream> {
    const type = response.headers.get("content-type") ?? "";
    // A server that ignored `stream: true` answers JSON; say so instead of reporting an empty stream.
    if (/^application\/json/i.test(type)) {
        const text = await response.text();
        throw invalidResponse(response.status, "Expected an event stream, got a JSON body", text, headersToRecord(response.headers));
    }
    if (!response.body) throw new TransportError("network", "The stream response has no body");
    const reader = response.body.getReader();
    for (;;) {
        const {done, value} = await reader.read();
        if (done) throw new TransportError("network", "The stream closed before sending any data");
        if (value && value.byteLength > 0) return {reader, first: value};
    }
}
