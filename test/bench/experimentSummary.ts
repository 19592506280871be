// How long summarizeExperiment takes on a large experiment: 10,000 rows × 3 decision variants × 5 questions
// (2 yes/no, 2 three-way choices, 1 five-level score), answers rounded to hundredths as the API sends them.
// Run: npx tsx test/bench/experimentSummary.ts [rows]; CLUSTER_SIZE=20 groups every 20 rows in a cluster (the
// experiment's cluster column), so intervals resample clusters and pass/fail differences are tested on them.
import {performance} from "node:perf_hooks";
import {seededRandom} from "../support/seededRandom.ts";
import {summarizeExperiment} from "../../client/experiments/summary.ts";
import {decisionVariant, experiment} from "../../client/experiments/testExperiment.ts";
import type {CellResult} from "../../client/experiments/types.ts";
import type {QuestionSet} from "../../client/scoring/questions.ts";

const rows = Number(process.argv[2] ?? 10_000);
const random = seededRandom(1);
const choices = ["low", "mid", "high"];
const questionSet: QuestionSet = {format: "decisions", questions: [
    {type: "predicate", name: "urgent", instructions: "Urgent?"},
    {type: "predicate", name: "refund", instructions: "Asks for a refund?"},
    {type: "choice", name: "topic", instructions: "Topic?", choices: choices.map((value) => ({value}))},
    {type: "choice", name: "tone", instructions: "Tone?", choices: choices.map((value) => ({value}))},
    {type: "score", name: "quality", instructions: "Quality?", levels: ["1", "2", "3", "4", "5"].map((label) => ({label}))}
]};
const round = (p: number) => Math.round(p * 100) / 100;

/** Probabilities leaning to `label` by `skill`, rounded to hundredths and summing to 1. */
function distribution(size: number, label: number, skill: number): number[] {
    const raw = Array.from({length: size}, (_unused, index) => random() + (index === label ? skill : 0));
    const total = raw.reduce((a, b) => a + b, 0);
    const rounded = raw.map((value) => round(value / total));
    rounded[0] = round(1 - rounded.slice(1).reduce((a, b) => a + b, 0));
    return rounded;
}

const labels = Array.from({length: rows}, () => [random() < 0.4, random() < 0.3, Math.floor(random() * 3), Math.floor(random() * 3), Math.floor(random() * 5)] as const);
const clusterSize = Number(process.env.CLUSTER_SIZE ?? 0);
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

for (let run = 0; run < 3; run++) {
    const started = performance.now(), cpu = process.cpuUsage();
    const summary = summarizeExperiment(spec, dataset, cells, process.env.RESAMPLES ? {resamples: Number(process.env.RESAMPLES)} : {});
    const ms = performance.now() - started, used = process.cpuUsage(cpu);
    // CPU time as well as wall time: on a shared machine the wall clock also counts other people's work.
    console.log(`${rows} rows × ${spec.variants.length} variants × 5 questions: ${ms.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU, ${summary.differences.length} differences, ` +
        `${summary.resamples} resamples, ${summary.disagreements.length} disagreements${summary.clustering ? `, ${summary.clustering.clusters} clusters` : ""}`);
}
