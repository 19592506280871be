// A rating column against a score question whose levels are labelled by numbers, through the input check and the
// summary: each rating names the level with that label, and a column that reads as level indexes is refused.
import {test} from "node:test";
import assert from "node:assert/strict";
import type {QuestionSet} from "../scoring/questions.ts";
import {checkExperimentInput, datasetFromTable} from "./dataset.ts";
import {summarizeExperiment} from "./summary.ts";
import {decisionVariant} from "./testExperiment.ts";
import type {CellResult, ExperimentSpec, MetricValue} from "./types.ts";

const labels = ["1", "2", "3", "4", "5"];
const ratingSet = (levels: readonly string[]): QuestionSet => ({format: "decisions", questions: [{type: "score", name: "rating", instructions: "How good is it?", levels: levels.map((label) => ({label}))}]});

function specOf(levels: readonly string[], ratings: ReadonlyArray<number | string>): ExperimentSpec {
    const dataset = datasetFromTable({name: "reviews", columns: ["text", "rating"], rows: ratings.map((rating, index) => [`review ${index}`, rating]), labelColumns: ["rating"]});
    return {format: "svc-experiment", version: 1, id: "e", name: "ratings", dataset, sample: {kind: "all"},
        variants: [decisionVariant("A", ratingSet(levels), 1), decisionVariant("B", ratingSet(levels), 2)], checks: [], seed: 1, createdAt: 0};
}

/** A cell whose answer puts 0.6 on `level` (an index) and 0.1 on each other level. */
function scoreCell(rowIndex: number, variant: number, level: number, levels: readonly string[]): CellResult {
    const probabilities = levels.map((label, index) => ({value: index, label, probability: index === level ? 0.6 : 0.4 / (levels.length - 1)}));
    const score = probabilities.reduce((sum, entry) => sum + entry.value * entry.probability, 0);
    return {rowIndex, variant, ok: true, request: {}, response: {answers: [{type: "score", name: "rating", score, probabilities, confidence: 0.6}]},
        latencyMs: 10, attempts: 1, completedAt: 0};
}

const accuracyOf = (metrics: readonly MetricValue[]) => metrics.find((value) => value.metric === "accuracy" && !value.calibrated)?.value;
const dataset = (spec: ExperimentSpec) => {
    if (!("rows" in spec.dataset)) throw new Error("inline dataset expected");
    return spec.dataset;
};
const allRows = (spec: ExperimentSpec) => dataset(spec).rows.map((_row, index) => index);

test("a 1–5 rating column against levels labelled 1 … 5 passes the input check", () => {
    const spec = specOf(labels, Array.from({length: 40}, (_unused, index) => 1 + index % 5));
    assert.deepEqual(checkExperimentInput(spec, dataset(spec), allRows(spec)).errors, []);
});

test("a 1–4 rating column: accuracy is the share of rows whose predicted level's label equals the rating", () => {
    const ratings = Array.from({length: 40}, (_unused, index) => 1 + index % 4);
    const spec = specOf(labels, ratings);
    assert.deepEqual(checkExperimentInput(spec, dataset(spec), allRows(spec)).errors, []);
    // Variant A predicts level (3 × row) mod 5 (an index; its label is that + 1). By hand: the label equals the
    // rating where (3i mod 5) = (i mod 4), on rows 0, 11, 14, 17 of every 20: 8 of 40 rows.
    const predicted = ratings.map((_rating, row) => (3 * row) % 5);
    const right = ratings.filter((rating, row) => labels[predicted[row]] === String(rating)).length;
    assert.equal(right, 8);
    // Variant B predicts the level labelled as the rating on every row.
    const cells = [...predicted.map((level, row) => scoreCell(row, 0, level, labels)), ...ratings.map((rating, row) => scoreCell(row, 1, rating - 1, labels))];
    const summary = summarizeExperiment(spec, dataset(spec), cells);
    assert.equal(accuracyOf(summary.variants[0].metrics), right / 40);
    assert.equal(accuracyOf(summary.variants[1].metrics), 1);
});

test("levels labelled in words read a 0-based index column, and a refusal lists the index range beside the labels", () => {
    const words = ["bad", "ok", "good"];
    const ratings = ["0", "1", "2", "2", "good", "OK"];
    const spec = specOf(words, ratings);
    assert.deepEqual(checkExperimentInput(spec, dataset(spec), allRows(spec)).errors, []);
    const levels = [0, 1, 2, 2, 2, 1];
    const cells = [0, 1].flatMap((variant) => levels.map((level, row) => scoreCell(row, variant, level, words)));
    assert.equal(accuracyOf(summarizeExperiment(spec, dataset(spec), cells).variants[0].metrics), 1);
    const beyond = specOf(words, ["bad", "3"]);
    assert.match(checkExperimentInput(beyond, dataset(beyond), allRows(beyond)).errors[0].message, /\("bad", "ok", "good", any case, or a level index 0–2 \(0 = lowest\)\) in variant A \(variants\[0\]\): row 2 "3"$/);
});

test("a column that counts levels from 0 against levels labelled 1 … 5 is refused before the run, saying why", () => {
    const spec = specOf(labels, Array.from({length: 20}, (_unused, index) => index % 5));
    const {errors} = checkExperimentInput(spec, dataset(spec), allRows(spec));
    assert.equal(errors.length, 1, errors.map((error) => error.message).join("\n"));
    assert.equal(errors[0].path, `dataset.columns["rating"]`);
    assert.match(errors[0].message, /^4 labels are a level index \(0 = lowest\) but no level's label of question "rating" in variant A \(variants\[0\]\): row 1 "0", row 6 "0", row 11 "0", row 16 "0"\. /);
    assert.match(errors[0].message, /levels are labelled "1", "2", "3", "4", "5", so a number in this column is read as the level with that label, never as an index/);
});

test("a label outside the levels is refused with exactly the answers accepted", () => {
    const spec = specOf(labels, [1, 2, 6, 3]);
    const {errors} = checkExperimentInput(spec, dataset(spec), allRows(spec));
    assert.match(errors[0].message, /^1 label is none of question "rating"'s answers \("1", "2", "3", "4", "5", any case\) in variant A \(variants\[0\]\): row 3 "6"$/);
});
