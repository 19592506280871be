import {test} from "node:test";
import assert from "node:assert/strict";
import {guessLabelColumn} from "./guessLabelColumn.ts";

test("guessLabelColumn prefers the question's own label column, then a single generic one", () => {
    assert.equal(guessLabelColumn("positive", ["review", "Positive_Label", "label"]), "Positive_Label");
    assert.equal(guessLabelColumn("topic", ["review", "topic", "label"]), "topic");
    assert.equal(guessLabelColumn("topic", ["review", "Label"]), "Label");
    assert.equal(guessLabelColumn("topic", ["review", "label", "gold"]), null, "two generic columns: no guess");
    assert.equal(guessLabelColumn("topic", ["review"]), null);
});

test("textColumn picks the column with the longest text", async () => {
    const {textColumn} = await import("./textColumn.ts");
    assert.equal(textColumn(["id", "review", "label"], [[1, "A long review text", "yes"], [2, "Another one", "no"]]), "review");
    assert.equal(textColumn(["id", "label"], []), "id");
    assert.equal(textColumn([], []), null);
});
