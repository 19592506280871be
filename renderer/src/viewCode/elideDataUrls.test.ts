import {test} from "node:test";
import assert from "node:assert/strict";
import {elideDataUrls} from "./elideDataUrls.ts";

test("long data URLs are cut to their head with the size left out; the input is not changed", () => {
    const url = `data:image/png;base64,${"A".repeat(5000)}`;
    const body = {messages: [{role: "user", content: [{type: "image_url", image_url: {url}}]}], n: 1};
    const out = elideDataUrls(body);
    const shown = (out.messages[0].content[0] as {image_url: {url: string}}).image_url.url;
    assert.match(shown, /^data:image\/png;base64,A{24}…\[5\.0 kB elided\]$/);
    assert.equal(body.messages[0].content[0].image_url.url, url);
    assert.equal(out.n, 1);
});

test("short data URLs and other strings are kept", () => {
    assert.equal(elideDataUrls("data:text/plain;base64,aGk="), "data:text/plain;base64,aGk=");
    assert.equal(elideDataUrls("x".repeat(500)), "x".repeat(500));
});
