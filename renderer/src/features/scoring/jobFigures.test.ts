import assert from "node:assert/strict";
import {test} from "node:test";
import {failureNote} from "./jobFigures.ts";

test("failureNote: a failed job says why beside its status, also when the reason was not kept; other statuses say nothing", () => {
    assert.equal(failureNote({status: "failed", fatalError: "row 33: 429 rate_limit_exceeded: over the limit"}), "row 33: 429 rate_limit_exceeded: over the limit");
    assert.match(failureNote({status: "failed", fatalError: null})!, /why was not saved/);
    assert.match(failureNote({status: "failed", fatalError: " "})!, /why was not saved/);
    for (const status of ["running", "paused", "completed", "cancelled"] as const) assert.equal(failureNote({status, fatalError: null}), null);
});
