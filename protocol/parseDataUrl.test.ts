import {test} from "node:test";
import assert from "node:assert/strict";
import {parseDataUrl} from "./images.ts";

test("splits a base64 image data URL into media type and data", () => {
    assert.deepEqual(parseDataUrl("data:image/png;base64,AAAA"), {mediaType: "image/png", base64: "AAAA"});
    assert.deepEqual(parseDataUrl("DATA:Image/JPEG;name=x.jpg;base64,QQ=="), {mediaType: "image/jpeg", base64: "QQ=="});
});

test("external URLs, non-base64 data URLs and non-image media types are refused with a reason", () => {
    for (const text of ["https://example.com/a.png", "data:image/png,rawdata", "data:text/plain;base64,QQ==", "data:;base64,QQ==", "data:image/png;base64"])
        assert.ok("problem" in parseDataUrl(text), text);
});
