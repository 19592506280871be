// A score question's label cells: a level's label first, an index (0 = lowest) only where no label holds a digit.
import {test} from "node:test";
import assert from "node:assert/strict";
import {parseQuestionSet, questionInfos} from "./questions.ts";
import {acceptedLabels, evaluateQuestion, readLabel} from "./evaluation.ts";
import {isUnreadLevelIndex, levelsAreNumbered} from "./scoreLevels.ts";

const scoreQuestion = (labels: readonly string[]) =>
    questionInfos(parseQuestionSet({questions: [{type: "score", name: "rating", instructions: "Rate it.", levels: labels.map((label) => ({label}))}]}).normalized)[0];

const oneToFive = scoreQuestion(["1", "2", "3", "4", "5"]);
const words = scoreQuestion(["bad", "ok", "good"]);

test("levels labelled 1 … 5: a rating is the level with that label, never the index it spells", () => {
    assert.equal(readLabel(oneToFive, "5"), 4);
    assert.equal(readLabel(oneToFive, "1"), 0);
    assert.equal(readLabel(oneToFive, 3), 2, "a number cell, as a spreadsheet gives");
    assert.equal(readLabel(oneToFive, " 4 "), 3);
    assert.equal(readLabel(oneToFive, "4.0"), 3, "the same number written with a decimal");
    assert.equal(readLabel(oneToFive, "0"), undefined, "0 is no label, and an index is not read against numbered levels");
    assert.equal(readLabel(oneToFive, "6"), undefined);
    assert.equal(acceptedLabels(oneToFive), `"1", "2", "3", "4", "5", any case`);
});

test("levels labelled in words: their labels in any case, or a level index from 0", () => {
    assert.equal(levelsAreNumbered(words.options), false);
    assert.equal(readLabel(words, "0"), 0);
    assert.equal(readLabel(words, "1"), 1);
    assert.equal(readLabel(words, 2), 2);
    assert.equal(readLabel(words, "GOOD"), 2);
    assert.equal(readLabel(words, "3"), undefined);
    assert.equal(acceptedLabels(words), `"bad", "ok", "good", any case, or a level index 0–2 (0 = lowest)`);
});

test("a number that could be an index or a label is told apart from a plain unknown label", () => {
    const stars = scoreQuestion(["1 star", "2 stars", "3 stars"]);
    assert.equal(levelsAreNumbered(stars.options), true);
    assert.equal(readLabel(stars, "2 STARS"), 1);
    assert.equal(readLabel(stars, "2"), undefined, "index 2 (3 stars) or the level labelled 2 stars: not guessed");
    assert.equal(isUnreadLevelIndex(stars.options, "2"), true);
    assert.equal(isUnreadLevelIndex(oneToFive.options, "0"), true);
    assert.equal(isUnreadLevelIndex(oneToFive.options, "3"), false, "a label");
    assert.equal(isUnreadLevelIndex(oneToFive.options, "7"), false, "neither a label nor an index");
    assert.equal(isUnreadLevelIndex(words.options, "1"), false, "read as an index");
});

test("yes/no and choice questions list exactly the labels they accept", () => {
    const [yesno, choice] = questionInfos(parseQuestionSet({questions: [
        {type: "predicate", instructions: "?"},
        {type: "choice", instructions: "?", choices: [{value: "red"}, {value: false}]}
    ]}).normalized);
    assert.equal(acceptedLabels(yesno), "true / false, yes / no, y / n, t / f or 1 / 0, any case");
    for (const cell of ["true", "FALSE", "yes", "No", "y", "N", "t", "F", "1", "0"]) assert.notEqual(readLabel(yesno, cell), undefined, cell);
    assert.equal(acceptedLabels(choice), `"red", "false", any case`);
});

test("the Evaluation reads a 1 – 5 rating column by label: no label is skipped, and accuracy counts the level whose label is the rating", () => {
    const answer = (level: number) => ({probabilities: [0, 1, 2, 3, 4].map((index) => index === level ? 0.6 : 0.1)});
    // Rows: rating 5 predicted level "5" (right), rating 1 predicted "1" (right), rating 3 predicted "4" (wrong).
    const evaluation = evaluateQuestion(oneToFive, [{answer: answer(4), label: "5"}, {answer: answer(0), label: 1}, {answer: answer(3), label: "3"}]);
    assert.equal(evaluation.used, 3);
    assert.deepEqual(evaluation.unknownLabels, []);
    assert.ok(Math.abs((evaluation.report?.accuracy ?? -1) - 2 / 3) < 1e-9, String(evaluation.report?.accuracy));
});
