// How long summarizeExperiment takes on a large experiment, 100,000 rows × 3 variants with 2,000 bootstrap
// resamples: one yes/no question and chat replies with a check and a grader against the goal (otherShapesBench), then
// 5 questions (2 yes/no, 2 three-way choices, 1 five-level score) for scale (summaryBench); answers rounded to
// hundredths as the API sends them. `npm run bench -- --only summary` runs them without and with clusters; the five
// questions alone: npx tsx test/bench/experimentSummary.ts [rows], CLUSTER_SIZE=20 to group every 20 rows in a
// cluster (the experiment's cluster column, so intervals resample clusters), RESAMPLES=n for another resample count.
import {performance} from "node:perf_hooks";
import {pathToFileURL} from "node:url";
import {seededRandom} from "../support/seededRandom.ts";
import {summarizeExperiment} from "../../client/experiments/summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "../../client/experiments/testExperiment.ts";
import {percentile} from "../../client/experiments/stats.ts";
import type {CellResult, ExperimentSpec} from "../../client/experiments/types.ts";
import {parseQuestionSet, questionInfos, readAnswers, type QuestionSet} from "../../client/scoring/questions.ts";
import {readLabel, reportOf} from "../../client/scoring/evaluation.ts";

const choices = ["low", "mid", "high"];
const questionSet: QuestionSet = {format: "decisions", questions: [
    {type: "predicate", name: "urgent", instructions: "Urgent?"},
    {type: "predicate", name: "refund", instructions: "Asks for a refund?"},
    {type: "choice", name: "topic", instructions: "Topic?", choices: choices.map((value) => ({value}))},
    {type: "choice", name: "tone", instructions: "Tone?", choices: choices.map((value) => ({value}))},
    {type: "score", name: "quality", instructions: "Quality?", levels: ["1", "2", "3", "4", "5"].map((label) => ({label}))}
]};
const round = (p: number) => Math.round(p * 100) / 100;

type BenchExperiment = {spec: ExperimentSpec, dataset: {columns: string[], labelColumns: string[], rows: string[][]}, cells: CellResult[]};

/** The experiment: `rows` rows answered by three variants of rising skill; with `clusterSize`, a cluster column. */
export function summaryExperiment(rows: number, clusterSize = 0): BenchExperiment {
    const random = seededRandom(1);
    /** Probabilities leaning to `label` by `skill`, rounded to hundredths and summing to 1. */
    const distribution = (size: number, label: number, skill: number) => {
        const raw = Array.from({length: size}, (_unused, index) => random() + (index === label ? skill : 0));
        const total = raw.reduce((a, b) => a + b, 0);
        const rounded = raw.map((value) => round(value / total));
        rounded[0] = round(1 - rounded.slice(1).reduce((a, b) => a + b, 0));
        return rounded;
    };
    const labels = Array.from({length: rows}, () => [random() < 0.4, random() < 0.3, Math.floor(random() * 3), Math.floor(random() * 3), Math.floor(random() * 5)] as const);
    const dataset = {columns: ["text", "urgent", "refund", "topic", "tone", "quality", "passage"], labelColumns: ["urgent", "refund", "topic", "tone", "quality"],
        rows: labels.map((label, index) => [`ticket ${index}`, label[0] ? "yes" : "no", label[1] ? "yes" : "no", choices[label[2]], choices[label[3]], String(label[4]),
            clusterSize > 0 ? `passage ${Math.floor(index / clusterSize)}` : ""])};
    const skills = [0.6, 0.9, 1.2];
    const cells: CellResult[] = [];
    skills.forEach((skill, variant) => labels.forEach((label, rowIndex) => {
        const predicate = (truth: boolean) => round(Math.min(1, Math.max(0, (truth ? 0.5 + skill / 4 : 0.5 - skill / 4) + (random() - 0.5) * 0.8)));
        const choice = (index: number) => {
            const probabilities = distribution(3, index, skill);
            return {type: "choice", name: null, choice: choices[probabilities.indexOf(Math.max(...probabilities))], confidence: Math.max(...probabilities), probabilities: probabilities.map((probability, at) => ({value: choices[at], probability}))};
        };
        const levels = distribution(5, label[4], skill);
        cells.push({rowIndex, variant, ok: true, request: {}, latencyMs: 50 + random() * 100, attempts: 1, completedAt: 0, usage: {promptTokens: 200, completionTokens: 5, totalTokens: 205}, response: {answers: [
            {type: "predicate", name: "urgent", probability: predicate(label[0])},
            {type: "predicate", name: "refund", probability: predicate(label[1])},
            choice(label[2]),
            choice(label[3]),
            {type: "score", name: "quality", score: levels.reduce((sum, p, level) => sum + p * level, 0), confidence: Math.max(...levels), probabilities: levels.map((probability, value) => ({value, label: String(value + 1), probability}))}
        ]}});
    }));
    const spec = {...experiment(skills.map((_skill, index) => decisionVariant(String.fromCharCode(65 + index), questionSet, index + 1))), ...(clusterSize > 0 ? {cluster: "passage"} : {})};
    return {spec, dataset, cells};
}

/** One summary's wall and CPU time (CPU too: on a shared machine the wall clock also counts other people's work). */
function timedSummary({spec, dataset, cells}: BenchExperiment, resamples: number) {
    const started = performance.now(), cpu = process.cpuUsage();
    const summary = summarizeExperiment(spec, dataset, cells, {resamples});
    const used = process.cpuUsage(cpu);
    return {wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, summary};
}

/**
 * The plainest bootstrap, as a baseline: each resample's rows written out, every variant's questions scored on them
 * by client/scoring's reportOf, the differences' percentiles taken; CPU ms per row and resample.
 */
function plainBootstrapCost({spec, dataset, cells}: BenchExperiment, resamples: number): number {
    const infos = questionInfos(parseQuestionSet(questionSet).normalized);
    const rows = dataset.rows.length, variants = spec.variants.length;
    const answers = Array.from({length: variants}, (_unused, variant) => cells.filter((cell) => cell.variant === variant).map((cell) => readAnswers("decisions", infos, cell.response as never)));
    // A label that reads as no option (a score of "0") leaves its row out of that question, as in the summary.
    const labels = infos.map((info, question) => dataset.rows.map((row) => readLabel(info, row[1 + question])));
    const cpu = process.cpuUsage();
    const random = seededRandom(spec.seed);
    const differences: number[][] = [];
    for (let resample = 0; resample < resamples; resample++) {
        const drawn = Array.from({length: rows}, () => Math.floor(random() * rows));
        infos.forEach((info, question) => {
            const labelled = drawn.filter((row) => typeof labels[question][row] === "number");
            const brier = answers.map((variantAnswers) => reportOf(info, labelled.map((row) => ({answer: variantAnswers[row][question], label: labels[question][row] as number}))).brier ?? Number.NaN);
            brier.slice(1).forEach((value, index) => (differences[question * (variants - 1) + index] ??= []).push(value - brier[0]));
        });
    }
    for (const values of differences) percentile(values.sort((a, b) => a - b), 0.025);
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000 / (rows * resamples);
}

const goals = {plain: 2000, clustered: 4000};

/**
 * The five-question experiment for scale (`npm run bench -- --only summary`, after the goal's shapes): 100,000 rows ×
 * 3 variants × 5 questions with 2,000 resamples, without and with clusters of 20 rows, each summarised twice (the
 * better counts) and twice with a single resample, whose time is what is not the bootstrap (tables, exact tests,
 * disagreements); and the plain bootstrap on 2,000 of the rows as a baseline, per row and resample. The bootstrap's
 * cost grows with the questions asked (one pass over the rows per variant question and batch of resamples), so
 * this shape is measured against the one-question figure, not the goal.
 */
export async function summaryBench(rows = 100_000, resamples = 2000): Promise<void> {
    const slice = summaryExperiment(2000);
    const plainMs = plainBootstrapCost(slice, 20);
    for (const clusterSize of [0, 20]) {
        const bench = summaryExperiment(rows, clusterSize);
        const least = (runs: Array<ReturnType<typeof timedSummary>>) => runs.reduce((a, b) => a.cpuMs <= b.cpuMs ? a : b);
        const runs = [timedSummary(bench, resamples), timedSummary(bench, resamples)];
        const best = least(runs);
        // The part that is not the bootstrap varies with the garbage collector's work: the better of two.
        const fixed = least([timedSummary(bench, 1), timedSummary(bench, 1)]);
        const bootstrapMs = Math.max(0, best.cpuMs - fixed.cpuMs);
        const what = clusterSize > 0 ? `clusters (${best.summary.clustering?.clusters} of ${clusterSize} rows)` : "rows";
        console.log(`${rows.toLocaleString("en-US")} rows × ${bench.spec.variants.length} variants × 5 questions, ${best.summary.resamples} resamples of ${what}: ` +
            `${runs.map((run) => `${run.wallMs.toFixed(0)} ms wall / ${run.cpuMs.toFixed(0)} ms CPU`).join(", ")}; ` +
            `${(best.wallMs / (oneQuestionMs.get(clusterSize) ?? Number.NaN)).toFixed(1)}x the one-question experiment's wall time`);
        const perRowResample = bootstrapMs / (rows * best.summary.resamples);
        console.log(`  bootstrap ${bootstrapMs.toFixed(0)} ms CPU (the summary with 1 resample: ${fixed.cpuMs.toFixed(0)} ms CPU); per row and resample ` +
            `${(perRowResample * 1e6).toFixed(1)} ns for 15 variant questions, the plain bootstrap (rows written out, each variant question's reportOf) ` +
            `${(plainMs * 1e6).toFixed(0)} ns on 2,000 rows × 20 resamples: ${perRowResample > 0 ? `${(plainMs / perRowResample).toFixed(0)}x` : "too short to tell"}`);
    }
}

/**
 * Two other shapes of a 100,000-row × 3-variant experiment: one yes/no question, and chat replies with a check and a
 * grader; with `clusterSize`, every `clusterSize` rows form a cluster (the experiment's cluster column).
 */
export function otherShapesFor(rows: number, clusterSize = 0): BenchExperiment[] {
    const random = seededRandom(3);
    const labels = Array.from({length: rows}, () => random() < 0.4);
    const dataset = {columns: ["text", "urgent", "passage"], labelColumns: ["urgent"],
        rows: labels.map((label, index) => [`ticket ${index}`, label ? "yes" : "no", clusterSize > 0 ? `passage ${Math.floor(index / clusterSize)}` : ""])};
    const clustered = clusterSize > 0 ? {cluster: "passage"} : {};
    const skills = [0.6, 0.9, 1.2];
    const yesNo: CellResult[] = skills.flatMap((skill, variant) => labels.map((label, rowIndex) =>
        predicateCell(rowIndex, variant, round(Math.min(1, Math.max(0, (label ? 0.5 + skill / 4 : 0.5 - skill / 4) + (random() - 0.5) * 0.8))))));
    const chat: CellResult[] = skills.flatMap((skill, variant) => labels.map((_label, rowIndex): CellResult => {
        const grade = round(Math.min(1, random() * skill));
        return {rowIndex, variant, ok: true, request: {}, reply: "r", latencyMs: 1, attempts: 1, completedAt: 0,
            checks: [{name: "regex", pass: random() < skill / 1.5, score: 1}, {name: "grounded", pass: grade >= 0.5, score: grade}]};
    }));
    const chatVariants = skills.map((_skill, index) => ({...chatVariant(String.fromCharCode(65 + index), "m"), params: {temperature: 1}}));
    return [
        {spec: {...experiment(skills.map((_skill, index) => decisionVariant(String.fromCharCode(65 + index), urgentSet, index + 1))), ...clustered}, dataset, cells: yesNo},
        {spec: {...experiment(chatVariants), ...clustered, checks: [{kind: "regex", pattern: "r"}, {kind: "grader", name: "grounded", question: "Grounded?", template: "{{reply}}"}]}, dataset, cells: chat}
    ];
}

/** The one-question experiment's best wall time per cluster size (0: rows), for the five-question shape's ratio. */
const oneQuestionMs = new Map<number, number>();

/**
 * The goal's shapes, a 100,000-row × 3-variant experiment with 2,000 resamples, timed against the goal (under 2 s;
 * with clusters of 20 rows under 4 s): one yes/no question, and chat replies with a check and a grader; the better
 * of two runs each.
 */
export function otherShapesBench(rows = 100_000, resamples = 2000): void {
    for (const clusterSize of [0, 20]) {
        const [yesNo, chat] = otherShapesFor(rows, clusterSize);
        const goal = clusterSize > 0 ? goals.clustered : goals.plain;
        const what = clusterSize > 0 ? `clusters of ${clusterSize} rows` : "rows";
        for (const [name, bench] of [["1 yes/no question", yesNo], ["chat replies, a check and a grader's score", chat]] as const) {
            const runs = [timedSummary(bench, resamples), timedSummary(bench, resamples)];
            const best = runs.reduce((x, y) => x.cpuMs <= y.cpuMs ? x : y);
            if (bench === yesNo) oneQuestionMs.set(clusterSize, best.wallMs);
            console.log(`${rows.toLocaleString("en-US")} rows × 3 variants, ${name}, ${best.summary.resamples} resamples of ${what}: ${runs.map((run) => `${run.wallMs.toFixed(0)} ms wall / ${run.cpuMs.toFixed(0)} ms CPU`).join(", ")} ` +
                `(goal < ${goal.toLocaleString("en-US")} ms: ${best.wallMs < goal ? "met" : "not met"} on the wall clock)`);
        }
    }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
    const rows = Number(process.argv[2] ?? 10_000);
    const bench = summaryExperiment(rows, Number(process.env.CLUSTER_SIZE ?? 0));
    for (let run = 0; run < Number(process.env.RUNS ?? 3); run++) {
        const {wallMs, cpuMs, summary} = timedSummary(bench, Number(process.env.RESAMPLES ?? 2000));
        console.log(`${rows} rows × ${bench.spec.variants.length} variants × 5 questions: ${wallMs.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU, ${summary.differences.length} differences, ` +
            `${summary.resamples} resamples, ${summary.disagreements.length} disagreements${summary.clustering ? `, ${summary.clustering.clusters} clusters` : ""}`);
    }
}
