// What the screen says about an experiment before anything is sent: its problems in words (client/experiments compiles
// every variant's requests and checks against the dataset's columns, so a {{variable}} naming no column, a bad regex or
// schema, or a grader template without {{reply}} is caught here), and the estimate of requests, tokens and time.
import {compileCellTask} from "../../../../client/experiments/cellTasks.ts";
import type {ExperimentSpec} from "../../../../client/experiments/types.ts";
import {sampleIndexes} from "../datasets/sampling.ts";

export type Estimate = {requests: number, tokens: number, time: string};

export type Preflight = {problems: string[], warnings: string[], estimate: Estimate | null, rows: number};

/** Seconds a request takes, roughly, for the time estimate: the built-in engine answers a short prompt in about this. */
const secondsPerRequest = 1.5;

function duration(seconds: number): string {
    if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
    if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
    return `${(seconds / 3600).toFixed(1)} h`;
}

/** Problems, warnings and the estimate of a built experiment (its dataset inline). */
export function preflight(spec: ExperimentSpec): Preflight {
    const dataset = "rows" in spec.dataset ? spec.dataset : null;
    if (dataset === null) return {problems: ["The experiment's dataset is a file: open it from the command line (svc-studio eval)."], warnings: [], estimate: null, rows: 0};
    const problems: string[] = [];
    const warnings: string[] = [];
    let rows: number[];
    try {
        rows = sampleIndexes(dataset, spec.sample);
    } catch (error) {
        return {problems: [`The sample: ${(error as Error).message}.`], warnings: [], estimate: null, rows: 0};
    }
    if (rows.length === 0) problems.push("The sample takes no row: choose another filter or sample size.");
    let characters = 0;
    let outputBudget = 0;
    let graderRequests = 0;
    spec.variants.forEach((variant, index) => {
        try {
            const task = compileCellTask(variant, index, dataset.columns, spec.checks, () => {
                throw new Error("nothing is sent before the experiment starts");
            });
            // Tokens: the filled requests of a few rows, scaled to the sample (chars / 4).
            const probe = rows.slice(0, 20);
            const probeChars = probe.reduce((sum, rowIndex) => sum + JSON.stringify(task.build(dataset.rows[rowIndex])).length, 0);
            characters += probe.length === 0 ? 0 : probeChars / probe.length * rows.length;
            if (variant.version.prompt.kind === "chat") {
                const body = {...variant.version.prompt.body, ...variant.params};
                const budget = Number(body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens ?? 256);
                outputBudget += (Number.isFinite(budget) ? budget : 256) * rows.length;
                graderRequests += spec.checks.filter((check) => check.kind === "grader").length * rows.length;
            }
        } catch (error) {
            problems.push(`Variant ${variant.name}: ${(error as Error).message}`);
        }
    });
    if (spec.variants.length === 1) warnings.push("One variant: its metrics are shown, but nothing is compared. Add a second to see which is better.");
    if (dataset.rows.length > 100_000) problems.push(`The dataset has ${dataset.rows.length.toLocaleString("en-US")} rows, more than 100,000: sample it first.`);
    const requests = rows.length * spec.variants.length + graderRequests;
    const concurrency = Math.max(1, spec.concurrency ?? 4);
    const estimate = {requests, tokens: Math.round(characters / 4 + outputBudget), time: duration(requests * secondsPerRequest / concurrency)};
    return {problems, warnings, estimate: problems.length > 0 ? null : estimate, rows: rows.length};
}
