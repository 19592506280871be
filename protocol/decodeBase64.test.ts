import {test} from "node:test";
import assert from "node:assert/strict";
import {decodeBase64} from "./images.ts";

test("decodes what Node's encoder writes, with and without padding", () => {
    for (let length = 0; length < 70; length++) {
        const bytes = Uint8Array.from({length}, (_, index) => (index * 97 + length * 13) & 0xff);
        const encoded = Buffer.from(bytes).toString("base64");
        assert.deepEqual(decodeBase64(encoded), bytes);
        assert.deepEqual(decodeBase64(encoded.replace(/=+$/, "")), bytes);
    }
});

test("characters outside the alphabet, misplaced padding and impossible lengths are refused", () => {
    assert.equal(decodeBase64("aGVsbG8*"), null);
    assert.equal(decodeBase64("aGVs bG8="), null);
    assert.equal(decodeBase64("aG=Vsbg=="), null);
    assert.equal(decodeBase64("aGVsb"), null);
    assert.equal(decodeBase64("aGVsbG8é"), null);
});
