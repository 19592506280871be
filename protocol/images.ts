import {fail, readString, type FieldPath, ValidationError} from "./validation.ts";
import {limits} from "./limits.ts";

const dataUrlPattern = /^data:([a-zA-Z0-9.+-]+\/[a-zA-Z0-9.+-]+)(?:;[a-zA-Z0-9-]+=[^;,]*)*;base64,([A-Za-z0-9+/\s]*={0,2})$/;

/**
 * Images travel only as inline data URLs (spec 2.1): any other URL is refused before anything is fetched. Chat and
 * Responses parts are held to the full data-URL grammar (payload included); decision images use `parseDataUrl`.
 */
export function readDataUrl(value: unknown, path: FieldPath): DataUrl {
    const url = readString(value, path);
    const match = dataUrlPattern.exec(url);
    if (match == null) {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
        fail(path, `only inline data URLs (data:<media-type>;base64,<data>) are accepted${scheme != null && scheme.toLowerCase() !== "data" ? `, not ${scheme} URLs` : ""}`);
    }
    return {mediaType: match[1].toLowerCase(), base64: match[2]};
}

// Decision images arrive only as base64 data URLs (spec 2.9: external image URLs and file IDs are unsupported):
// `data:image/<subtype>[;param=value]*;base64,<data>`.

export type DataUrl = {
    /** Lower-cased media type as the URL declares it, e.g. `image/png`. */
    mediaType: string,
    /** The base64 text after the comma (not decoded here). */
    base64: string
};

/** Returns the parts of a base64 image data URL, or a reason why the text is not one. */
export function parseDataUrl(text: string): DataUrl | {problem: string} {
    if (!/^data:/i.test(text)) return {problem: "must be a base64 data URL (data:image/...;base64,...); external URLs are not supported"};
    const comma = text.indexOf(",");
    if (comma < 0) return {problem: "is not a data URL: no comma before the data"};
    const header = text.slice("data:".length, comma).split(";").map((part) => part.trim());
    const mediaType = header[0].toLowerCase();
    if (header[header.length - 1].toLowerCase() !== "base64") return {problem: "must be base64 encoded (data:image/...;base64,...)"};
    if (!/^image\/[a-z0-9.+-]+$/.test(mediaType)) return {problem: `must hold an image media type, got ${JSON.stringify(mediaType || "none")}`};
    return {mediaType, base64: text.slice(comma + 1)};
}

// Pure base64 decoding (protocol code runs in browsers too, so no Buffer). Strict: only the standard alphabet,
// padding optional but only at the end; anything else returns null so the caller can name the field at fault.

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const valueOf = new Int16Array(128).fill(-1);
for (let index = 0; index < alphabet.length; index++) valueOf[alphabet.charCodeAt(index)] = index;

export function decodeBase64(text: string): Uint8Array | null {
    let end = text.length;
    if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61 /* = */) {
        end--;
        if (text.charCodeAt(end - 1) === 61) end--;
    }
    // A single leftover character carries only 6 bits: never valid.
    if (end % 4 === 1) return null;
    const bytes = new Uint8Array(Math.floor(end * 3 / 4));
    let buffer = 0;
    let bits = 0;
    let written = 0;
    for (let index = 0; index < end; index++) {
        const code = text.charCodeAt(index);
        const digit = code < 128 ? valueOf[code] : -1;
        if (digit < 0) return null;
        buffer = (buffer << 6) | digit;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes[written++] = (buffer >> bits) & 0xff;
        }
    }
    return bytes;
}

// Width and height straight from the file header, so the 25-megapixel limit (spec 8) is checked before any
// decoder runs and bytes that merely claim to be an image are refused. Supports the four formats the engine
// accepts: PNG (IHDR), JPEG (first SOFn marker), GIF (logical screen) and WebP (VP8, VP8L or VP8X chunk).

export type ImageSize = {format: DecisionImageFormat, mediaType: string, width: number, height: number};

/** The format and pixel size of `bytes`, or null when they are not a complete-enough PNG, JPEG, GIF or WebP header. */
export function readImageSize(bytes: Uint8Array): ImageSize | null {
    const size = readPng(bytes) ?? readGif(bytes) ?? readWebp(bytes) ?? readJpeg(bytes);
    if (!size || size.width <= 0 || size.height <= 0) return null;
    return size;
}

const mediaTypes: Record<DecisionImageFormat, string> = {png: "image/png", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp"};

function sized(format: DecisionImageFormat, width: number, height: number): ImageSize {
    return {format, mediaType: mediaTypes[format], width, height};
}

function startsWith(bytes: Uint8Array, offset: number, expected: readonly number[]): boolean {
    if (bytes.length < offset + expected.length) return false;
    return expected.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(text: string): number[] {
    return Array.from(text, (char) => char.charCodeAt(0));
}

const uint16be = (bytes: Uint8Array, offset: number) => (bytes[offset] << 8) | bytes[offset + 1];
const uint16le = (bytes: Uint8Array, offset: number) => bytes[offset] | (bytes[offset + 1] << 8);
const uint24le = (bytes: Uint8Array, offset: number) => bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16);
const uint32be = (bytes: Uint8Array, offset: number) => ((bytes[offset] << 24) >>> 0) + (bytes[offset + 1] << 16) + (bytes[offset + 2] << 8) + bytes[offset + 3];

// PNG: 8-byte signature, then the IHDR chunk (length 13) whose data starts with width and height, big-endian.
function readPng(bytes: Uint8Array): ImageSize | null {
    if (!startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return null;
    if (bytes.length < 24 || !startsWith(bytes, 12, ascii("IHDR"))) return null;
    return sized("png", uint32be(bytes, 16), uint32be(bytes, 20));
}

// GIF: "GIF87a" / "GIF89a", then the logical screen width and height, little-endian.
function readGif(bytes: Uint8Array): ImageSize | null {
    if (!startsWith(bytes, 0, ascii("GIF87a")) && !startsWith(bytes, 0, ascii("GIF89a"))) return null;
    if (bytes.length < 10) return null;
    return sized("gif", uint16le(bytes, 6), uint16le(bytes, 8));
}

// WebP: RIFF container; the first chunk says which bitstream follows.
function readWebp(bytes: Uint8Array): ImageSize | null {
    if (!startsWith(bytes, 0, ascii("RIFF")) || !startsWith(bytes, 8, ascii("WEBP"))) return null;
    if (startsWith(bytes, 12, ascii("VP8X"))) {
        // Extended: 24-bit canvas width - 1 and height - 1 after 4 flag bytes.
        if (bytes.length < 30) return null;
        return sized("webp", uint24le(bytes, 24) + 1, uint24le(bytes, 27) + 1);
    }
    if (startsWith(bytes, 12, ascii("VP8L"))) {
        // Lossless: signature 0x2f, then 14 bits width - 1 and 14 bits height - 1, little-endian bit order.
        if (bytes.length < 25 || bytes[20] !== 0x2f) return null;
        const bits = (bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24)) >>> 0;
        return sized("webp", (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    if (startsWith(bytes, 12, ascii("VP8 "))) {
        // Lossy: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height (top 2 bits are scaling).
        if (bytes.length < 30 || !startsWith(bytes, 23, [0x9d, 0x01, 0x2a])) return null;
        return sized("webp", uint16le(bytes, 26) & 0x3fff, uint16le(bytes, 28) & 0x3fff);
    }
    return null;
}

// JPEG: SOI, then marker segments until a start-of-frame (SOF0-SOF15 except DHT C4, JPG C8, DAC CC), whose
// payload is precision (1 byte), height, width (big-endian).
function readJpeg(bytes: Uint8Array): ImageSize | null {
    if (!startsWith(bytes, 0, [0xff, 0xd8])) return null;
    let offset = 2;
    while (offset + 4 <= bytes.length) {
        if (bytes[offset] !== 0xff) return null;
        const marker = bytes[offset + 1];
        // Fill bytes before a marker.
        if (marker === 0xff) {
            offset++;
            continue;
        }
        // Stand-alone markers without a length: TEM, RST0-7.
        if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
            offset += 2;
            continue;
        }
        // End of image or start of scan before any frame header: no size to read.
        if (marker === 0xd9 || marker === 0xda) return null;
        const length = uint16be(bytes, offset + 2);
        if (length < 2) return null;
        const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (isFrame) {
            if (offset + 9 > bytes.length) return null;
            return sized("jpeg", uint16be(bytes, offset + 7), uint16be(bytes, offset + 5));
        }
        offset += 2 + length;
    }
    return null;
}

export type InlineImage = ImageSize & {bytes: Uint8Array};

/**
 * An image part's URL (spec 2.1, 2.4): an inline `data:image/...;base64,` URL whose bytes decode to a PNG, JPEG,
 * GIF or WebP image, so a part that only claims to be an image is refused before it reaches any model.
 */
export function readImageDataUrl(value: unknown, path: FieldPath): InlineImage {
    const {mediaType, base64} = readDataUrl(value, path);
    if (!mediaType.startsWith("image/")) fail(path, `must hold an image, but its data URL declares ${mediaType}`);
    const bytes = decodeBase64(base64.replace(/\s+/g, ""));
    if (bytes == null) fail(path, "holds invalid base64 data");
    const image = readImageSize(bytes);
    if (image == null) fail(path, "does not hold a readable image (PNG, JPEG, GIF or WebP expected)");
    return {...image, bytes};
}

/**
 * Reads one decision image (a base64 data URL) at `path`: decodes it, checks that the bytes are a PNG, JPEG,
 * GIF or WebP image and that it holds at most 25,000,000 pixels. A malformed field is `invalid_request`;
 * well-formed bytes that are no readable image are `request_rejected` (spec 7, 400 cause 6).
 */
export function readDecisionImage(value: unknown, path: FieldPath, name: string): NormalizedImage {
    const dataUrl = parseDataUrl(readString(value, path));
    if ("problem" in dataUrl) fail(path, dataUrl.problem);
    const bytes = decodeBase64(dataUrl.base64);
    if (!bytes) fail(path, "holds invalid base64 data");
    const size = readImageSize(bytes);
    if (!size) throw new ValidationError(path, "cannot be read as an image (PNG, JPEG, GIF or WebP expected)", {code: "request_rejected"});
    const pixels = size.width * size.height;
    if (pixels > limits.pixelsPerImage)
        fail(path, `is ${size.width}x${size.height} = ${pixels.toLocaleString("en-US")} pixels; an image may hold at most ${limits.pixelsPerImage.toLocaleString("en-US")} pixels`);
    return {name, mediaType: size.mediaType, format: size.format, bytes, width: size.width, height: size.height};
}

// ---- What the engine consumes ----

export type DecisionImageFormat = "png" | "jpeg" | "gif" | "webp";

export type NormalizedImage = {
    /** `image_1`, `image_2`, ... on /v1/decisions (order sent); the `x_svc.images` key on /v1/systemone. */
    name: string,
    /** From the bytes, not the data URL's claim: `image/png`, `image/jpeg`, `image/gif` or `image/webp`. */
    mediaType: string,
    format: DecisionImageFormat,
    bytes: Uint8Array,
    width: number,
    height: number
};
