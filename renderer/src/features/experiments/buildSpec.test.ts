import assert from "node:assert/strict";
import {test} from "node:test";
import type {Dataset, PromptVersion} from "../../../../client/experiments/types.ts";
import {useItemVersionsStore, useVersionsStore} from "../versions/versionStore.ts";
import {buildSpec} from "./buildSpec.ts";
import {emptyDraft, newCheck, type ExperimentDraft} from "./draftStore.ts";
import {draftFromSpec} from "./specDraft.ts";

const dataset: Dataset = {id: "d", name: "quiz", columns: ["q", "expected"], columnTypes: ["string", "string"], rows: [["a", "b"]], labelColumns: ["expected"], inputColumns: ["q"], createdAt: 0, updatedAt: 0};
const version = (number: number): PromptVersion => ({itemId: "p", itemName: "Bot", version: number, note: "", createdAt: number,
    prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{q}}"}]}}});

// Two saved versions of one chat prompt, as the Versions store keeps them (in memory here: nothing is loaded or sent).
useVersionsStore.setState({items: [{itemId: "p", itemName: "Bot", kind: "chat", latest: 2, updatedAt: 2}]});
useItemVersionsStore.setState({versions: {p: [version(2), version(1)]}});

function draftOf(change: (draft: ExperimentDraft) => void): ExperimentDraft {
    const draft = emptyDraft();
    draft.variants = draft.variants.map((variant, index) => ({...variant, itemId: "p", version: index === 0 ? 1 : null}));
    change(draft);
    return draft;
}

test("a complete setup builds the experiment file: versions resolved (latest), the chat model defaulted, checks and grader", () => {
    const built = buildSpec(draftOf((draft) => {
        draft.checks = [newCheck({kind: "contains", column: "expected"})];
        draft.grader = {...draft.grader, enabled: true};
        draft.variants[1].params = "{\"temperature\": 0}";
    }), dataset);
    assert.deepEqual(built.problems, []);
    assert.deepEqual(built.spec?.variants.map((variant) => [variant.name, variant.version.version, variant.model, variant.params ?? null]),
        [["A", 1, "svc-1", null], ["B", 2, "svc-1", {temperature: 0}]]);
    assert.deepEqual(built.spec?.checks.map((check) => check.kind), ["contains", "grader"]);
    assert.equal(built.spec?.name, "quiz: A vs B");
});

test("every problem of the setup is said in words, and nothing is built", () => {
    const built = buildSpec(draftOf((draft) => {
        draft.variants[1].name = "A";
        draft.variants[0].params = "{oops";
        draft.variants[0].inputPrice = "-1";
        draft.checks = [newCheck({kind: "regex", pattern: ""}), newCheck({kind: "json_schema", schema: "[1]"})];
        draft.grader = {...draft.grader, enabled: true, threshold: "2"};
    }), null);
    assert.equal(built.spec, null);
    assert.deepEqual(built.problems.map((problem) => problem.replace(/\(.*\)/, "(…)")), [
        "Choose a dataset (…).",
        "Two variants have the same name: each column of the results needs its own.",
        "Variant A: parameters is not JSON (…).",
        "Variant A: input price must be a number of 0 or more.",
        "The regex check needs a pattern.",
        "The JSON schema check's schema does not read: a schema is a JSON object.",
        "The grader's threshold must be a number from 0 to 1."
    ]);
});

test("the cluster column chosen in Setup goes into the experiment file, and comes back when the experiment is opened again", () => {
    const plain = buildSpec(draftOf(() => undefined), dataset);
    assert.equal(plain.spec?.cluster, undefined, "no column chosen: rows are independent");
    const clustered = buildSpec(draftOf((draft) => draft.cluster = "q"), dataset);
    assert.equal(clustered.spec?.cluster, "q");
    assert.equal(draftFromSpec(clustered.spec!, false).cluster, "q");
});
