import type {Clusters} from "./clusters.ts";
import type {ExperimentSpec, Variant} from "./types.ts";

// Repeats: an experiment can ask each row K times (`repeats` in the file). A chat reply sampled at a temperature
// above 0 varies from one asking to the next, so a row's K replies measure its prediction noise, which one reply
// per row leaves mixed into the data noise. Each repeat is a cell of its own: its own seed, its own key in the
// response cache, its own place in the results store. Decision questions read the label tokens' logits: asked
// again they give the same probabilities, so repeats are refused for them.

/** Repeats an experiment may ask for; more rows, not more repeats, narrow an interval past a few. */
export const maxRepeats = 50;

/** How many times each row is asked: the file's `repeats`, else 1. */
export function repeatsOf(spec: Pick<ExperimentSpec, "repeats">): number {
    return spec.repeats ?? 1;
}

/** A variant's effective temperature: its parameters over its version's body; undefined when neither sets one. */
function temperatureOf(variant: Variant): unknown {
    const prompt = variant.version.prompt;
    if (variant.params?.temperature !== undefined) return variant.params.temperature;
    return prompt.kind === "chat" ? prompt.body.temperature : undefined;
}

/** Why the experiment's repeats cannot run as set, one problem per variant that refuses them; [] when they can. */
export function repeatProblems(spec: ExperimentSpec): Array<{path: string, message: string}> {
    const repeats = repeatsOf(spec);
    if (repeats <= 1) return [];
    const problems: Array<{path: string, message: string}> = [];
    spec.variants.forEach((variant, index) => {
        if (variant.version.prompt.kind === "decision")
            problems.push({path: `variants[${index}]`, message: `variant ${variant.name} asks a question set, and repeats are for chat replies: a decision's probabilities are read from the model's logits, so asking again gives the same answer (set repeats to 1)`});
        else if (temperatureOf(variant) === 0)
            problems.push({path: `variants[${index}].params.temperature`, message: `variant ${variant.name} samples at temperature 0, so its ${repeats} repeats would be the same reply: raise the temperature, or set repeats to 1`});
    });
    return problems;
}

/**
 * The body a repeat sends. The first asking sends the body as compiled when nothing repeats; with repeats, chat
 * requests carry `seed` = the body's seed (else the experiment's) plus the repeat's number, so every repeat samples
 * apart and can be sampled again. Responses requests have no `seed` field in the API: theirs differ by their key in
 * the response cache only.
 */
export function repeatRequest(request: Record<string, unknown>, endpoint: "chat" | "responses" | "decision", repeat: number, repeats: number, experimentSeed: number): Record<string, unknown> {
    if (repeats <= 1 || endpoint !== "chat") return request;
    const base = typeof request.seed === "number" && Number.isInteger(request.seed) ? request.seed : experimentSeed;
    return {...request, seed: base + repeat};
}

/**
 * The clusters a summary's answers fall in: without repeats, the cluster column's (or none); with repeats, each
 * row's answers (positions row·K … row·K + K − 1) form one cluster, or, with a cluster column, every answer of its
 * cluster's rows does. `rows` is the sample's size.
 */
export function rowClusters(columnClusters: Clusters | undefined, rows: number, repeats: number): Clusters | undefined {
    if (repeats <= 1) return columnClusters;
    const groups = columnClusters?.members ?? Array.from({length: rows}, (_unused, row) => Int32Array.of(row));
    const of = new Int32Array(rows * repeats);
    const members = groups.map((rowsOfCluster, cluster) => {
        const answers = new Int32Array(rowsOfCluster.length * repeats);
        rowsOfCluster.forEach((row, at) => {
            for (let repeat = 0; repeat < repeats; repeat++) {
                answers[at * repeats + repeat] = row * repeats + repeat;
                of[row * repeats + repeat] = cluster;
            }
        });
        return answers;
    });
    return {column: columnClusters?.column ?? "row", of, members};
}

/** The cells of an experiment's run on `rows` rows: one per row, variant and repeat. */
export function experimentCells(spec: Pick<ExperimentSpec, "variants" | "repeats">, rows: number): number {
    return rows * spec.variants.length * repeatsOf(spec);
}
