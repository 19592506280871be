import {test} from "node:test";
import assert from "node:assert/strict";
import {defaultRowColumns, guessLabelColumn, labelColumns} from "./labelColumns.ts";

test("guessLabelColumn prefers the question's own label column, then a single generic one", () => {
    assert.equal(guessLabelColumn("positive", ["review", "Positive_Label", "label"]), "Positive_Label");
    assert.equal(guessLabelColumn("topic", ["review", "topic", "label"]), "topic");
    assert.equal(guessLabelColumn("topic", ["review", "Label"]), "Label");
    assert.equal(guessLabelColumn("topic", ["review", "label", "gold"]), null, "two generic columns: no guess");
    assert.equal(guessLabelColumn("topic", ["review"]), null);
});

test("label columns: each question's own, and every column named label, gold, truth or expected", () => {
    const columns = ["id", "review", "positive", "stars_gold", "expected score", "labeller", "topic label", "Truth"];
    assert.deepEqual([...labelColumns(["positive", "stars"], columns)].sort(), ["Truth", "expected score", "positive", "stars_gold", "topic label"]);
});

test("whole-row input sends every column but the label columns unless a person picks others", () => {
    assert.deepEqual(defaultRowColumns(["positive", "topic"], ["id", "review", "positive", "topic", "label"]), ["id", "review"]);
    assert.deepEqual(defaultRowColumns(["positive"], ["id", "review"]), ["id", "review"]);
});
