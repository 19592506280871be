import {repeatsOf} from "./repeats.ts";
import {compileCellTask} from "./cellTasks.ts";
import {defaultExperimentConcurrency} from "./ExperimentRunner.ts";
import type {Dataset, ExperimentSpec, Variant} from "./types.ts";

// What an experiment will cost before it starts: requests, tokens and time. Rough by design: tokens are the filled
// requests' characters / 4 (on a spread of sample rows, scaled to the sample), the output is each chat variant's
// output budget (max_tokens and its aliases, else `defaultOutputTokens`), and time is requests × seconds per request
// over the requests in flight. A measured pace (an earlier run's, per variant where known) replaces the assumed one.

/** Output tokens assumed for a chat request that sets no budget. */
export const defaultOutputTokens = 256;

/** Seconds a request takes when nothing was measured: the built-in engine answers a short prompt in about this. */
export const assumedSecondsPerRequest = 1.5;

/** Rows whose requests are filled to count characters (spread over the sample). */
const probeRows = 50;

export type VariantEstimate = {name: string, requests: number, promptTokens: number, outputTokens: number, /** Seconds per request used. */ pace?: number};

export type ExperimentEstimate = {
    rows: number,
    /** rows × variants × repeats. */
    cells: number,
    /** Cells plus one request per grader check on every chat cell. */
    requests: number,
    promptTokens: number,
    /** Upper bound: the output budgets (a reply may stop sooner). */
    outputTokens: number,
    /** Null when no variant could be compiled. */
    seconds: number | null,
    /** Whether `seconds` comes from a measured pace rather than the assumed one. */
    measured: boolean,
    variants: VariantEstimate[]
};

export type EstimateOptions = {
    /** A measured pace: seconds per request with one in flight (an earlier run's latency). */
    secondsPerRequest?: number,
    /** A measured pace per variant (seconds per request with the same requests in flight), where one is known. */
    paceOf?: (variant: Variant) => number | undefined,
    /** Requests in flight at once; default the spec's concurrency, else 4. */
    concurrency?: number
};

const budgetFields = ["max_completion_tokens", "max_tokens", "max_output_tokens"];

/** The estimate for `rows` (dataset row indexes, from sampleIndexes); a variant that does not compile counts zero. */
export function estimateExperiment(spec: ExperimentSpec, dataset: Dataset, rows: readonly number[], options: EstimateOptions = {}): ExperimentEstimate {
    const step = Math.max(1, Math.floor(rows.length / probeRows));
    const probe = rows.filter((_, position) => position % step === 0).slice(0, probeRows);
    const graders = spec.checks.filter((check) => check.kind === "grader");
    let compiled = 0;
    const variants = spec.variants.map((variant, index): VariantEstimate => {
        let task;
        try {
            task = compileCellTask(variant, index, dataset, [], () => {
                throw new Error("an estimate sends nothing");
            });
        } catch {
            return {name: variant.name, requests: 0, promptTokens: 0, outputTokens: 0};
        }
        compiled++;
        const characters = probe.reduce((sum, rowIndex) => sum + JSON.stringify(task.build(dataset.rows[rowIndex])).length, 0);
        const perRow = probe.length === 0 ? 0 : characters / probe.length / 4;
        const prompt = variant.version.prompt;
        if (prompt.kind === "decision") return {name: variant.name, requests: rows.length, promptTokens: Math.round(perRow * rows.length), outputTokens: 0};
        const body: Record<string, unknown> = {...prompt.body, ...variant.params};
        const field = budgetFields.find((name) => typeof body[name] === "number");
        const budget = field === undefined ? defaultOutputTokens : body[field] as number;
        // A grader reads its template with the reply in it.
        // With repeats each row is asked K times.
        const asked = rows.length * repeatsOf(spec);
        const graderPrompt = graders.reduce((sum, grader) => sum + (grader.template.length + grader.question.length) / 4 + budget, 0);
        return {
            name: variant.name,
            requests: asked * (1 + graders.length),
            promptTokens: Math.round((perRow + graderPrompt) * asked),
            outputTokens: budget * asked
        };
    });
    const requests = variants.reduce((sum, variant) => sum + variant.requests, 0);
    const concurrency = Math.max(1, Math.min(requests, options.concurrency ?? spec.concurrency ?? defaultExperimentConcurrency));
    const paces = spec.variants.map((variant) => options.paceOf?.(variant) ?? options.secondsPerRequest);
    const work = variants.reduce((sum, variant, index) => sum + variant.requests * (paces[index] ?? assumedSecondsPerRequest), 0);
    return {
        rows: rows.length,
        cells: rows.length * spec.variants.length * repeatsOf(spec),
        requests,
        promptTokens: variants.reduce((sum, variant) => sum + variant.promptTokens, 0),
        outputTokens: variants.reduce((sum, variant) => sum + variant.outputTokens, 0),
        seconds: compiled === 0 ? null : work / concurrency,
        measured: paces.some((pace, index) => pace !== undefined && variants[index].requests > 0),
        variants: variants.map((variant, index) => ({...variant, pace: paces[index] ?? assumedSecondsPerRequest}))
    };
}
