// Smallest headers of each image format with a chosen width and height, for tests of the size reader and of
// the 25-megapixel limit (a header is all readImageSize looks at, so no pixel data is needed).

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));
const u16be = (value: number) => [(value >>> 8) & 0xff, value & 0xff];
const u16le = (value: number) => [value & 0xff, (value >>> 8) & 0xff];
const u24le = (value: number) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
const u32be = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];

export function pngHeader(width: number, height: number): Uint8Array {
    // Signature, IHDR length 13, "IHDR", width, height, bit depth 8, colour type 2, compression, filter, interlace, CRC (unchecked).
    return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...u32be(13), ...ascii("IHDR"), ...u32be(width), ...u32be(height), 8, 2, 0, 0, 0, 0, 0, 0, 0]);
}

export function gifHeader(width: number, height: number): Uint8Array {
    return new Uint8Array([...ascii("GIF89a"), ...u16le(width), ...u16le(height), 0, 0, 0]);
}

export function jpegHeader(width: number, height: number): Uint8Array {
    // SOI, an APP0 (JFIF) segment to skip, then SOF0 with precision 8, height, width, 3 components.
    const app0 = [0xff, 0xe0, ...u16be(16), ...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const sof0 = [0xff, 0xc0, ...u16be(17), 8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
    return new Uint8Array([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
}

function riff(chunk: number[]): Uint8Array {
    return new Uint8Array([...ascii("RIFF"), ...[4 + chunk.length, 0, 0, 0], ...ascii("WEBP"), ...chunk]);
}

export function webpLossyHeader(width: number, height: number): Uint8Array {
    // "VP8 ", chunk size, frame tag (3 bytes), start code 9d 01 2a, 14-bit width and height.
    return riff([...ascii("VP8 "), 10, 0, 0, 0, 0x30, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height)]);
}

export function webpLosslessHeader(width: number, height: number): Uint8Array {
    const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    return riff([...ascii("VP8L"), 5, 0, 0, 0, 0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]);
}

export function webpExtendedHeader(width: number, height: number): Uint8Array {
    return riff([...ascii("VP8X"), 10, 0, 0, 0, 0, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)]);
}

export function toDataUrl(bytes: Uint8Array, mediaType = "image/png"): string {
    return `data:${mediaType};base64,${btoa(String.fromCharCode(...bytes))}`;
}
