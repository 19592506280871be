import assert from "node:assert/strict";
import {test} from "node:test";
import type {ExperimentSpec, PromptVersion, Variant} from "../../../../client/experiments/types.ts";
import {draftFromSpec} from "./specDraft.ts";
import {graderOf} from "./buildSpec.ts";

const version = (itemId: string, number: number): PromptVersion => ({itemId, itemName: itemId, version: number, note: "", createdAt: 0,
    prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{q}}"}]}}});
const variant = (name: string, itemId: string, number: number): Variant => ({name, version: version(itemId, number), connection: {profile: "local"}, model: "svc-1"});
const spec = (variants: Variant[]): ExperimentSpec => ({format: "svc-experiment", version: 1, id: "e", name: "e", sample: {kind: "first", n: 5}, seed: 3, createdAt: 0,
    dataset: {id: "d", name: "d", columns: ["q"], columnTypes: ["string"], rows: [], labelColumns: [], inputColumns: ["q"], createdAt: 0, updatedAt: 0},
    variants, checks: [{kind: "contains", column: "q"}, {kind: "grader", name: "g", question: "Good?", template: "{{reply}}", threshold: 0.7}]});

test("run again: the newest version of an item follows its latest, an older one stays pinned", () => {
    const draft = draftFromSpec(spec([variant("A", "p", 1), variant("B", "p", 2), variant("C", "other", 4)]), true);
    assert.deepEqual(draft.variants.map((item) => [item.name, item.itemId, item.version]), [["A", "p", 1], ["B", "p", null], ["C", "other", null]]);
});

test("the setup comes back whole: dataset, sample, checks and the grader", () => {
    const draft = draftFromSpec(spec([variant("A", "p", 1)]), false);
    assert.deepEqual(draft.variants.map((item) => item.version), [1]);
    assert.equal(draft.datasetId, "d");
    assert.deepEqual(draft.sample, {kind: "first", n: 5});
    assert.deepEqual(draft.checks.map((check) => [check.kind, check.column]), [["contains", "q"]]);
    assert.deepEqual(draft.grader, {enabled: true, name: "g", question: "Good?", template: "{{reply}}", threshold: "0.7"});
});

test("a grader's human label column comes back in the setup, and the setup builds it again", () => {
    const withHumans = spec([variant("A", "p", 1)]);
    withHumans.checks[1] = {...withHumans.checks[1], humanLabelColumn: "q"} as ExperimentSpec["checks"][number];
    const draft = draftFromSpec(withHumans, false);
    assert.equal(draft.grader.humanLabelColumn, "q");
    assert.deepEqual(graderOf(draft.grader, []), withHumans.checks[1]);
    assert.ok(!Object.hasOwn(graderOf({...draft.grader, humanLabelColumn: ""}, []) ?? {}, "humanLabelColumn"), "none chosen: no column in the file");
});
