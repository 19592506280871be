import assert from "node:assert/strict";
import {test} from "node:test";
import {engineAddress} from "./engineAddress.ts";

test("the engine's address: its URL while running, else where its next start listens", () => {
    assert.equal(engineAddress({status: "running", url: "http://127.0.0.1:8081", port: 8081}), "http://127.0.0.1:8081");
    assert.equal(engineAddress({status: "stopped", port: 8085}), "http://127.0.0.1:8085");
    assert.equal(engineAddress({status: "starting", port: 8085}), "http://127.0.0.1:8085");
    assert.equal(engineAddress({status: "crashed", port: 0}), undefined);
});
