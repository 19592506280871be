import {test} from "node:test";
import assert from "node:assert/strict";
import {defaultThreads} from "./LocalEngine.ts";

test("the default leaves one core to Node's own thread, and never goes below one thread", () => {
    assert.equal(defaultThreads(1), 1);
    assert.equal(defaultThreads(2), 1);
    assert.equal(defaultThreads(8), 7);
});
