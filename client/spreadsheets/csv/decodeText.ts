import type {TextChunks} from "../types.ts";

/**
 * Turns byte pieces into text pieces. The encoding comes from the byte order mark (UTF-8, UTF-16 LE or BE,
 * as Excel's "Unicode text" writes), else UTF-8; the decoder drops the mark itself and keeps multi-byte
 * characters that straddle two pieces whole. String pieces pass through unchanged.
 */
export async function* decodeText(chunks: TextChunks): AsyncGenerator<string, void, undefined> {
    let decoder: TextDecoder | undefined;
    for await (const chunk of chunks) {
        if (typeof chunk === "string") {
            if (chunk !== "") yield chunk;
            continue;
        }
        decoder ??= new TextDecoder(sniffEncoding(chunk));
        const text = decoder.decode(chunk, {stream: true});
        if (text !== "") yield text;
    }
    const tail = decoder?.decode() ?? "";
    if (tail !== "") yield tail;
}

function sniffEncoding(bytes: Uint8Array): string {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
    return "utf-8";
}
