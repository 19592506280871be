import {test} from "node:test";
import assert from "node:assert/strict";
import {summarizeExperiment} from "./summary.ts";
import {decisionVariant, experiment, predicateCell} from "./testExperiment.ts";
import type {CellResult, MetricKey} from "./types.ts";
import {parseQuestionSet, questionInfos, readAnswers, type NormalizedAnswer, type QuestionSet} from "../scoring/questions.ts";
import {readLabel, reportOf, type Report} from "../scoring/evaluation.ts";
import {calibrateAnswer, type QuestionCalibration} from "../scoring/calibration.ts";
import {seededRandom} from "../../base/common/seededRandom.ts";

const close = (actual: number | null | undefined, expected: number | null, message: string) =>
    assert.ok(expected === null ? actual === null : actual != null && Math.abs(actual - expected) < 1e-9, `${message}: expected ${expected}, got ${actual}`);

test("the ECE of a hand-computed example, through the one shared ECE", () => {
    // P(yes) = .9 .8 .7 .6 .4 .2 against yes yes no yes no no; 10 bins, one row per bin:
    // (|1-.9| + |1-.8| + |0-.7| + |1-.6| + |0-.4| + |0-.2|) / 6 = 2.0 / 6 = 1/3.
    const set: QuestionSet = {format: "decisions", questions: [{type: "predicate", name: "urgent", instructions: "Urgent?"}]};
    const probabilities = [0.9, 0.8, 0.7, 0.6, 0.4, 0.2];
    const dataset = {columns: ["urgent"], labelColumns: ["urgent"], rows: ["yes", "yes", "no", "yes", "no", "no"].map((label) => [label])};
    const summary = summarizeExperiment(experiment([decisionVariant("A", set)]), dataset, probabilities.map((p, row) => predicateCell(row, 0, p)));
    const ece = summary.variants[0].metrics.find((value) => value.metric === "ece")!;
    close(ece.value, 1 / 3, "ece");
    assert.equal(ece.reliability?.filter((bin) => bin.count > 0).length, 6);
    close(summary.variants[0].metrics.find((value) => value.metric === "auc")!.value, 8 / 9, "auc");
});

// A mixed question set on 60 random rows, with a saved calibration for two of its questions: every metric of the
// summary equals client/scoring's reportOf on the same answers and labels, raw and calibrated.
const levels = ["bad", "ok", "good", "great"];
const set: QuestionSet = {format: "decisions", questions: [
    {type: "predicate", name: "urgent", instructions: "Urgent?"},
    {type: "choice", name: "topic", instructions: "Topic?", choices: [{value: "billing"}, {value: "bug"}, {value: "other"}]},
    {type: "score", name: "tone", instructions: "Tone?", levels: levels.map((label) => ({label}))}
], calibration: {
    urgent: calibration("urgent", "yesno", "platt", 1.7, -0.2),
    tone: calibration("tone", "score", "temperature", 0.6, 0)
}};

function calibration(question: string, kind: QuestionCalibration["kind"], method: QuestionCalibration["method"], temperature: number, bias: number): QuestionCalibration {
    const scores = {logLoss: 0, brier: 0, ece: 0};
    return {version: 1, question, kind, method, temperature, bias, fittedOn: 10, before: scores, after: scores, evaluatedOn: 10, heldOut: false, fittedAt: ""};
}

const round = (p: number) => Math.round(p * 100) / 100;
function distribution(random: () => number, size: number): number[] {
    const raw = Array.from({length: size}, () => random() ** 2);
    const total = raw.reduce((a, b) => a + b, 0);
    const rounded = raw.map((value) => round(value / total));
    rounded[0] = round(1 - rounded.slice(1).reduce((a, b) => a + b, 0));
    return rounded;
}

test("every metric equals reportOf's on the same rows, raw and calibrated", () => {
    const random = seededRandom(21);
    const topics = ["billing", "bug", "other"];
    const rows = Array.from({length: 60}, (_unused, row) => [random() < 0.5 ? "yes" : "no", topics[Math.floor(random() * 3)], levels[Math.floor(random() * 4)], row % 13 === 0 ? "" : "x"]);
    rows[5][1] = ""; // an unlabelled row leaves that question's metrics
    const dataset = {columns: ["urgent", "topic", "tone", "note"], labelColumns: ["urgent", "topic", "tone"], rows};
    const cells: CellResult[] = rows.map((_row, rowIndex) => {
        const topic = distribution(random, 3), tone = distribution(random, 4);
        return predicateCell(rowIndex, 0, round(random()), {response: {answers: [
            {type: "predicate", name: "urgent", probability: round(random())},
            {type: "choice", name: "topic", choice: topics[topic.indexOf(Math.max(...topic))], confidence: 0.5, probabilities: topic.map((probability, at) => ({value: topics[at], probability}))},
            {type: "score", name: "tone", score: tone.reduce((sum, p, level) => sum + p * level, 0), confidence: 0.5, probabilities: tone.map((probability, value) => ({value, label: levels[value], probability}))}
        ]}});
    });
    const summary = summarizeExperiment(experiment([decisionVariant("A", set)]), dataset, cells);
    assert.deepEqual(summary.warnings, []);
    const infos = questionInfos(parseQuestionSet(set).normalized);
    const answers = cells.map((cell) => readAnswers("decisions", infos, cell.response as never));
    const expected: Record<MetricKey, (report: Report) => number | null> = {
        accuracy: (report) => report.accuracy, macro_f1: (report) => report.macroF1, brier: (report) => report.brier, log_loss: (report) => report.logLoss,
        ece: (report) => report.ece, auc: (report) => report.kind === "binary" ? report.auc : null,
        mae: (report) => report.kind === "multiclass" ? report.meanAbsoluteError ?? null : null, pass_rate: () => null
    };
    let compared = 0;
    infos.forEach((info, question) => {
        for (const calibrated of [false, true]) {
            const saved: QuestionCalibration | undefined = set.calibration?.[info.name];
            if (calibrated && saved === undefined) continue;
            const labelled = answers.flatMap((row, rowIndex): Array<{answer: NormalizedAnswer, label: number}> => {
                const label = readLabel(info, rows[rowIndex][question]);
                const answer: NormalizedAnswer = calibrated ? calibrateAnswer(info, saved!, row[question]) : row[question];
                return typeof label === "number" ? [{answer, label}] : [];
            });
            const report = reportOf(info, labelled);
            const values = summary.variants[0].metrics.filter((value) => value.question === info.name && value.calibrated === calibrated);
            assert.ok(values.length >= 5, `${info.name} ${calibrated}`);
            for (const value of values) {
                close(value.value, expected[value.metric](report), `${info.name} ${value.metric}${calibrated ? " calibrated" : ""}`);
                assert.equal(value.n, labelled.length);
                compared++;
            }
            assert.deepEqual(values.find((value) => value.metric === "ece")?.reliability?.map((bin) => bin.count), report.reliability.map((bin) => bin.count));
        }
    });
    assert.equal(compared, 6 + 5 + 6 + 6 + 6);
});
