import type {MetricKey} from "./types.ts";
import type {ReliabilityBin} from "../scoring/evaluation.ts";
import type {QuestionInfo} from "../scoring/questions.ts";

// One variant's rows prepared for its metrics: each used row belongs to a group of rows that the metrics cannot
// tell apart (same answer and label, or same check scores), so a bootstrap resample is evaluated as group weights
// through the very report functions that give the matrix its numbers, at the cost of the groups, not the rows.

export type MetricTable = {
    /** Matches the same table of another variant: question and calibration (decision), or "checks" (chat). */
    key: string,
    question?: string,
    kind?: QuestionInfo["kind"],
    calibrated: boolean,
    /** The metrics `evaluate` returns, in order. */
    metrics: MetricKey[],
    /** Per position in the sample: the row's group, -1 where the row is not used (failed, unanswered, unlabelled). */
    groupOf: Int32Array,
    groupCount: number,
    /** The metrics (aligned with `metrics`) of rows weighted per group; NaN where undefined on them. */
    evaluate: (weights: Float64Array) => Float64Array,
    /** Per group, for McNemar: 1 when its rows are right (decision) or passed every check (chat), else 0. */
    correct: Uint8Array,
    /** The metric McNemar's test goes with: accuracy (decision) or pass_rate (chat). */
    pairedOutcome: MetricKey,
    /** Decision tables: the reliability bins at these weights, for the chart beside the ECE. */
    reliability?: (weights: Float64Array) => ReliabilityBin[]
};

/** Rows per group when every used row counts once. */
export function groupWeights(table: MetricTable, positions?: ArrayLike<number>): Float64Array {
    const weights = new Float64Array(table.groupCount);
    if (positions === undefined) {
        for (const group of table.groupOf) if (group >= 0) weights[group]++;
    } else {
        for (let index = 0; index < positions.length; index++) weights[table.groupOf[positions[index]]]++;
    }
    return weights;
}

/** Assigns ids to distinct keys in order of first appearance. */
export class GroupIndex<T> {
    public readonly members: T[] = [];
    private readonly ids = new Map<string, number>();

    public idOf(key: string, make: () => T): number {
        let id = this.ids.get(key);
        if (id === undefined) {
            id = this.members.length;
            this.ids.set(key, id);
            this.members.push(make());
        }
        return id;
    }
}

/** A metric value read from a report: null and undefined become NaN, as `evaluate` returns them. */
export function numberOrNaN(value: number | null | undefined): number {
    return value == null ? Number.NaN : value;
}
