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

/**
 * Rows that every metric sees alike (the same check outcomes and scores) share a group: a resample becomes a
 * weight per group, and the metrics are the groups' weighted means, at the cost of the groups, not the rows.
 */
export class GroupedRows<T> {
    public readonly members: T[] = [];
    public readonly groupOf: Int32Array;
    private readonly ids = new Map<string, number>();
    // Reused by every evaluation (thousands per summary), each of which reads it before the next one starts.
    private weights: Float64Array | null = null;

    public constructor(positions: number) {
        this.groupOf = new Int32Array(positions).fill(-1);
    }

    public add(position: number, key: string, make: () => T): void {
        let id = this.ids.get(key);
        if (id === undefined) {
            id = this.members.length;
            this.ids.set(key, id);
            this.members.push(make());
        }
        this.groupOf[position] = id;
    }

    /** Weight per group of the rows at `positions`, each counted `counts[position]` times (once when null). */
    public weigh(positions: Int32Array, counts: Int32Array | null): Float64Array {
        if (this.weights === null || this.weights.length !== this.members.length) this.weights = new Float64Array(this.members.length);
        const weights = this.weights.fill(0);
        for (let index = 0; index < positions.length; index++) {
            const position = positions[index];
            const count = counts === null ? 1 : counts[position];
            if (count !== 0) weights[this.groupOf[position]] += count;
        }
        return weights;
    }

    /**
     * The weights of a batch of resamples at once, one array per lane: the packed counts summed per group in one pass
     * over the rows (exact, resampleLanes.ts), then each group's sum unpacked into its lanes.
     */
    public weighLanes(positions: Int32Array, counts: PackedCounts): Float64Array[] {
        const sums = new Float64Array(this.members.length);
        const {packed} = counts;
        for (let index = 0; index < positions.length; index++) {
            const position = positions[index];
            const count = packed[position];
            if (count !== 0) sums[this.groupOf[position]] += count;
        }
        const unit = 2 ** counts.bits;
        return Array.from({length: counts.lanes}, (_unused, lane) => {
            const below = 2 ** -(counts.bits * lane);
            return sums.map((sum) => {
                const rest = Math.floor(sum * below);
                return rest - Math.floor(rest / unit) * unit;
            });
        });
    }

    public used(): Uint8Array {
        return Uint8Array.from(this.groupOf, (group) => group >= 0 ? 1 : 0);
    }
}

/** A metric value read from a report: null and undefined become NaN, as `evaluate` returns them. */
export function numberOrNaN(value: number | null | undefined): number {
    return value == null ? Number.NaN : value;
}
