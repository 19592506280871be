import {crc32, deflateSync} from "node:zlib";

// One PNG encoder for the app icon (resources/makeIcon.ts), WebP images handed to the vision binding as PNG
// (native/vision/decodableImage.ts) and the tests' images.

/**
 * An 8-bit RGBA, non-interlaced PNG: signature, IHDR, one IDAT (each row with filter 0), IEND. `level` is zlib's:
 * 9 for a file that is kept (the icon), 1 for a PNG read once and thrown away (a WebP handed to the vision binding,
 * up to 25 megapixels, encoded per request).
 */
export function encodePng(width: number, height: number, rgba: Uint8Array | Uint8ClampedArray, {level = 9}: {level?: number} = {}): Buffer {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(width, 0);
    header.writeUInt32BE(height, 4);
    header.set([8, 6, 0, 0, 0], 8);
    const rows = Buffer.alloc((width * 4 + 1) * height);
    for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
    return Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        chunk("IHDR", header),
        chunk("IDAT", deflateSync(rows, {level})),
        chunk("IEND", Buffer.alloc(0))
    ]);
}

function chunk(type: string, data: Buffer): Buffer {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const name = Buffer.from(type, "ascii");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data, crc32(name)));
    return Buffer.concat([length, name, data, crc]);
}
