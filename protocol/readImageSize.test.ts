import {test} from "node:test";
import assert from "node:assert/strict";
import {readImageSize} from "./images.ts";
import {gifHeader, jpegHeader, pngHeader, webpExtendedHeader, webpLosslessHeader, webpLossyHeader} from "../test/fixtures/imageFixtures.ts";

test("each format's header gives its width and height", () => {
    assert.deepEqual(readImageSize(pngHeader(5000, 5000)), {format: "png", mediaType: "image/png", width: 5000, height: 5000});
    assert.deepEqual(readImageSize(pngHeader(3_000_000_000, 2)), {format: "png", mediaType: "image/png", width: 3_000_000_000, height: 2});
    assert.deepEqual(readImageSize(gifHeader(640, 480)), {format: "gif", mediaType: "image/gif", width: 640, height: 480});
    assert.deepEqual(readImageSize(jpegHeader(1920, 1080)), {format: "jpeg", mediaType: "image/jpeg", width: 1920, height: 1080});
    assert.deepEqual(readImageSize(webpLossyHeader(800, 600)), {format: "webp", mediaType: "image/webp", width: 800, height: 600});
    assert.deepEqual(readImageSize(webpLosslessHeader(16384, 3)), {format: "webp", mediaType: "image/webp", width: 16384, height: 3});
    assert.deepEqual(readImageSize(webpExtendedHeader(16_777_216, 1)), {format: "webp", mediaType: "image/webp", width: 16_777_216, height: 1});
});

test("JPEG fill bytes and restart markers before the frame header are skipped", () => {
    const plain = jpegHeader(300, 200);
    const padded = new Uint8Array([0xff, 0xd8, 0xff, 0xff, ...plain.slice(2)]);
    assert.deepEqual(readImageSize(padded), {format: "jpeg", mediaType: "image/jpeg", width: 300, height: 200});
});

test("truncated headers, zero sizes and non-images are refused", () => {
    // Each header cut one byte before its last size byte.
    const cuts: Array<[Uint8Array, number]> = [
        [pngHeader(10, 10), 23], [gifHeader(10, 10), 9], [jpegHeader(10, 10), 28],
        [webpLossyHeader(10, 10), 29], [webpLosslessHeader(10, 10), 24], [webpExtendedHeader(10, 10), 29]
    ];
    for (const [header, cut] of cuts) {
        assert.deepEqual([readImageSize(header)?.width, readImageSize(header)?.height], [10, 10], "the full header reads");
        assert.equal(readImageSize(header.slice(0, cut)), null, `cut at ${cut}`);
    }
    assert.equal(readImageSize(pngHeader(0, 10)), null);
    assert.equal(readImageSize(gifHeader(10, 0)), null);
    assert.equal(readImageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2])), null);
    assert.equal(readImageSize(new TextEncoder().encode("plain text, not an image")), null);
    assert.equal(readImageSize(new Uint8Array(0)), null);
});
