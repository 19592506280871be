import {test} from "node:test";
import assert from "node:assert/strict";
import {formatBytes} from "./format.ts";

test("bytes below 1 KiB are whole bytes", () => {
    assert.equal(formatBytes(0), "0 B");
    assert.equal(formatBytes(1023), "1023 B");
});

test("larger sizes use binary units with three significant digits", () => {
    assert.equal(formatBytes(1024), "1.00 KiB");
    assert.equal(formatBytes(1536), "1.50 KiB");
    assert.equal(formatBytes(924_384), "903 KiB");
    assert.equal(formatBytes(15.5 * 1024 * 1024), "15.5 MiB");
    assert.equal(formatBytes(640_000_000), "610 MiB");
    assert.equal(formatBytes(1_830_000_000), "1.70 GiB");
});
