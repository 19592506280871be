import {TransportError} from "../errors/TransportError.ts";
import {abortReason} from "../utils/abortReason.ts";
import type {OpenedStream} from "./readFirstBytes.ts";

/**
 * Yields the first bytes already read, then the rest of the body. An abort cancels the reader even when
 * an injected fetch ignores signals; a connection that breaks later is an `interrupted` TransportError.
 * `release` runs once, however the reading ends.
 */
export async function* streamBytes(opened: OpenedStream, signal: AbortSignal, release: () => void): AsyncGenerator<Uint8Array, void, undefined> {
    const {reader} = opened;
    const onAbort = () => {
        reader.cancel(abortReason(signal)).catch(() => undefined);
    };
    signal.addEventListener("abort", onAbort, {once: true});
    let finished = false;
    try {
        yield opened.first;
        for (;;) {
            let result: ReadableStreamReadResult<Uint8Array>;
            try {
                result = await reader.read();
            } catch (error) {
                finished = true;
                if (signal.aborted) throw abortReason(signal);
                throw new TransportError("interrupted", "The stream broke off", {cause: error});
            }
            if (signal.aborted) {
                finished = true;
                throw abortReason(signal);
            }
            if (result.done) {
                finished = true;
                return;
            }
            if (result.value.byteLength > 0) yield result.value;
        }
    } finally {
        signal.removeEventListener("abort", onAbort);
        if (!finished) await reader.cancel().catch(() => undefined);
        release();
    }
}
