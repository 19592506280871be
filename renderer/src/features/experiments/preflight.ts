// What the screen says about an experiment before anything is sent: client/experiments' checks of the input (variables
// naming no column, templates, checks, labels outside a question's choices, repeated rows, the sample's size), said as
// sentences with the variant's name, and its estimate of requests, tokens and time.
import {checkExperimentInput, sampleIndexes, type InputProblem} from "../../../../client/experiments/dataset.ts";
import {estimateExperiment} from "../../../../client/experiments/estimate.ts";
import type {ExperimentSpec} from "../../../../client/experiments/types.ts";
import {measuredPace} from "./pace.ts";

export type Estimate = {requests: number, tokens: number, time: string, /** Whether the time comes from a measured pace (an earlier run's). */ measured: boolean};

export type Preflight = {problems: string[], warnings: string[], estimate: Estimate | null, rows: number};

function duration(seconds: number): string {
    if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
    if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
    return `${(seconds / 3600).toFixed(1)} h`;
}

/** Parts of a path said in the screen's words: a variant's input, its prompt's message 2, a dataset column. */
const pathWords: Array<[RegExp, (...parts: string[]) => string]> = [
    [/version\.prompt\.input$/, () => "input"],
    [/version\.prompt\.body\.messages\[(\d+)\]\.content.*$/, (_match, index) => `prompt, message ${Number(index) + 1}`],
    [/version\.prompt\.body\.(\w+).*$/, (_match, field) => `prompt, ${field}`],
    [/version\.prompt$/, () => "prompt"],
    [/^dataset\.columns\[("(?:[^"\\]|\\.)*")\]$/, (_match, name) => `Column ${name}`],
    [/^dataset\.rows$/, () => "Dataset"]
];

/** A problem's path in the screen's words: `variants[1].version.prompt.input` → "Variant B, input". */
function sentence(spec: ExperimentSpec, problem: InputProblem): string {
    const words = pathWords.reduce((path, [pattern, say]) => path.replace(pattern, say), problem.path);
    const where = words.replace(/^variants\[(\d+)\]\.?/, (_match, index: string) => `Variant ${spec.variants[Number(index)]?.name ?? Number(index) + 1}${words.length > `variants[${index}]`.length ? ", " : ""}`)
        .replace(/^checks\[(\d+)\]\.?/, (_match, index: string) => `Check ${Number(index) + 1}${words.length > `checks[${index}]`.length ? ", " : ""}`);
    return where === "" ? problem.message : `${where}: ${problem.message}`;
}

/** Problems, warnings and the estimate of a built experiment (its dataset inline). */
export function preflight(spec: ExperimentSpec): Preflight {
    const dataset = "rows" in spec.dataset ? spec.dataset : null;
    if (dataset === null) return {problems: ["The experiment's dataset is a file: run it from the command line (svc-studio eval)."], warnings: [], estimate: null, rows: 0};
    let rows: number[];
    try {
        rows = sampleIndexes(dataset, spec.sample);
    } catch (error) {
        return {problems: [(error as Error).message], warnings: [], estimate: null, rows: 0};
    }
    const checked = checkExperimentInput(spec, dataset, rows);
    const problems = checked.errors.map((problem) => sentence(spec, problem));
    const warnings = checked.warnings.map((problem) => sentence(spec, problem));
    if (spec.variants.length === 1) warnings.push("One variant: its metrics are shown, but nothing is compared. Add a second to see which is better.");
    if (problems.length > 0) return {problems, warnings, estimate: null, rows: rows.length};
    const estimate = estimateExperiment(spec, dataset, rows, {paceOf: measuredPace});
    return {
        problems,
        warnings,
        rows: rows.length,
        estimate: {requests: estimate.requests, tokens: estimate.promptTokens + estimate.outputTokens, time: estimate.seconds === null ? "–" : duration(estimate.seconds), measured: estimate.measured}
    };
}
