import type {MetricKey} from "./types.ts";
import type {ReliabilityBin} from "../scoring/evaluation.ts";
import type {QuestionInfo} from "../scoring/questions.ts";
import {laneCounts, type PackedCounts} from "./resampleLanes.ts";

// One variant's rows prepared for its metrics, so that a bootstrap resample (how many times each row was drawn)
// is evaluated in one pass over the rows through client/scoring's own definitions, never a second formula:
// decisionTables.ts for questions, chatTables.ts for checks.

export type MetricTable = {
    /** Matches the same table of another variant: question and calibration (decision), or "checks" (chat). */
    key: string,
    question?: string,
    kind?: QuestionInfo["kind"],
    calibrated: boolean,
    /** The metrics `evaluate` returns, in order. */
    metrics: MetricKey[],
    /** Per position in the sample: 1 when the row is used (answered, labelled, checked), else 0. */
    used: Uint8Array,
    /**
     * The metrics (aligned with `metrics`) over the rows at `positions` (all used), each counted `counts[position]`
     * times, or once when `counts` is null; NaN where undefined on those rows.
     */
    evaluate: (positions: Int32Array, counts: Int32Array | null) => Float64Array,
    /** The same for each resample of a batch, their counts packed in lanes (resampleLanes.ts); absent: one lane at a time. */
    evaluateLanes?: (positions: Int32Array, counts: PackedCounts) => Float64Array[],
    /**
     * The pass / fail metrics among `metrics` (accuracy; pass_rate and each `pass:<name>`), each with its per-row
     * outcome (per position: 1 right or passed, else 0). Their differences are compared with McNemar's exact test
     * and its exact interval (stats.ts pairedExact); the other metrics with the bootstrap.
     */
    outcomes: ReadonlyMap<MetricKey, Uint8Array>,
    /** Decision tables: the reliability bins over these rows, for the chart beside the ECE. */
    reliability?: (positions: Int32Array) => ReliabilityBin[]
};

/** The positions a table uses, in order. */
export function usedPositions(used: Uint8Array): Int32Array {
    let count = 0;
    for (let position = 0; position < used.length; position++) if (used[position] === 1) count++;
    const positions = new Int32Array(count);
    for (let position = 0, at = 0; position < used.length; position++) if (used[position] === 1) positions[at++] = position;
    return positions;
}

/** The lanes' counts for tables that read one resample at a time, reused from call to call. */
let laneBuffer = new Int32Array(0);

/** A table's metrics on each resample of a batch: at once when it reads lanes, else one lane after another. */
export function evaluateLanes(table: MetricTable, positions: Int32Array, counts: PackedCounts): Float64Array[] {
    if (table.evaluateLanes !== undefined) return table.evaluateLanes(positions, counts);
    if (laneBuffer.length !== counts.packed.length) laneBuffer = new Int32Array(counts.packed.length);
    return Array.from({length: counts.lanes}, (_unused, lane) => table.evaluate(positions, laneCounts(counts, lane, laneBuffer)));
}

/** A metric value read from a report: null and undefined become NaN, as `evaluate` returns them. */
export function numberOrNaN(value: number | null | undefined): number {
    return value == null ? Number.NaN : value;
}
