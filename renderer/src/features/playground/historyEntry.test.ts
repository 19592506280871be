import assert from "node:assert/strict";
import {test} from "node:test";
import {readHistoryEntry} from "./runs.ts";

const run = {id: "r1", kind: "chat", createdAt: 1, connectionName: "Local engine", connectionKind: "local", request: {model: "svc-1", messages: []}, status: "done", reply: null, timing: {totalMs: 12}};

test("a saved run is read against what History shows of it; one without timing has no figures, one of another shape none at all", () => {
    assert.deepEqual(readHistoryEntry(run), run);
    const {timing: _timing, ...untimed} = run;
    assert.deepEqual(readHistoryEntry(untimed)?.timing, {}, "a run saved without timing reads as one with no figures");
    for (const broken of [null, 42, [], {...run, id: 7}, {...run, kind: "email"}, {...run, status: "running"}, {...run, request: "hi"}, {...run, timing: 5}, {...run, error: {code: 1}}, {...run, createdAt: "yesterday"}])
        assert.equal(readHistoryEntry(broken), null, JSON.stringify(broken));
});
