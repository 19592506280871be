import {readFile} from "node:fs/promises";
import {createRequire} from "node:module";
import decodeWebp, {init as initWebpDecoder} from "@jsquash/webp/decode.js";
import type {NormalizedImage} from "../../protocol/images.ts";
import {encodePng} from "../../base/node/encodePng.ts";

// The vision binding's image decoder (libmtmd's stb_image) reads PNG, JPEG and GIF; the spec (2.1, 2.4, 2.9) also
// allows WebP. A WebP image is decoded here with libwebp (Squoosh's WebAssembly build, @jsquash/webp: no native
// addon to package per platform) and handed to the binding as a PNG of the same pixels.

export class ImageDecodeError extends Error {
    public readonly code = "image_decode_failed";
}

let decoderReady: Promise<void> | undefined;

/** Loads libwebp's decoder once, from the package's own .wasm file (Node has no fetch of a file URL to do it). */
function webpDecoder(): Promise<void> {
    decoderReady ??= (async () => {
        const wasmPath = createRequire(import.meta.url).resolve("@jsquash/webp/codec/dec/webp_dec.wasm");
        await initWebpDecoder(await WebAssembly.compile(await readFile(wasmPath)));
    })();
    return decoderReady;
}

/** The image as a data URL the binding can decode: PNG, JPEG and GIF as sent, WebP converted to PNG. */
export async function decodableDataUrl(image: Pick<NormalizedImage, "format" | "mediaType" | "bytes">): Promise<string> {
    if (image.format !== "webp") return `data:${image.mediaType};base64,${Buffer.from(image.bytes).toString("base64")}`;
    await webpDecoder();
    let pixels: {width: number, height: number, data: Uint8ClampedArray};
    try {
        // libwebp reads the first frame of an animated WebP, as GIFs are read.
        pixels = await decodeWebp(image.bytes.slice().buffer);
    } catch (error) {
        throw new ImageDecodeError(`the WebP image could not be decoded (${(error as Error).message}); it may be corrupt or truncated`);
    }
    return `data:image/png;base64,${encodePng(pixels.width, pixels.height, pixels.data, {level: 1}).toString("base64")}`;
}
