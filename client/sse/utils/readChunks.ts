/**
 * Iterates a byte stream; a ReadableStream is read through its reader because not every browser makes
 * it async-iterable. Leaving early cancels the stream, which closes the connection under a fetch body.
 */
export async function* readChunks(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
    if (!isReadableStream(source)) {
        yield* source;
        return;
    }
    const reader = source.getReader();
    let finished = false;
    try {
        for (;;) {
            const {done, value} = await reader.read();
            if (done) {
                finished = true;
                return;
            }
            if (value && value.byteLength > 0) yield value;
        }
    } catch (error) {
        finished = true;
        throw error;
    } finally {
        if (!finished) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
    }
}

function isReadableStream(source: unknown): source is ReadableStream<Uint8Array> {
    return typeof (source as ReadableStream | null)?.getReader === "function";
}
