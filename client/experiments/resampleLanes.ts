import type {SeededRandom} from "../../base/common/seededRandom.ts";
import type {SharedWeighing} from "./sharedWeighing.ts";

// Several bootstrap resamples at once. A row's count in each of a batch's resamples (its lanes) is packed into one
// number, count₀ + count₁·2^bits + count₂·2^(2·bits) + …: adding packed counts adds every lane's counts at once, so
// a table that sums whole counts per pattern (rowPatterns.ts) weighs a batch of resamples in one pass over its rows.
// Exact while every sum stays a whole number below 2^53: `bits` is chosen so that no lane's sum, at most the
// resample's total count, can reach 2^bits, and the lanes together fit in 53 bits.

/** A batch of resamples' counts per position, packed in lanes. */
export type PackedCounts = {
    /** Per position, Σ over lanes of count · 2^(bits·lane). */
    packed: Float64Array,
    /** Resamples in the batch (lane l is resample `first + l`). */
    lanes: number,
    bits: number,
    first: number,
    /** Weighs every pattern set the batch is weighed by in one pass over the rows (sharedWeighing.ts). */
    weighing?: SharedWeighing
};

/** Lanes of whole numbers up to `largestSum` each: the bits a lane needs, and how many fit in a float64. */
export function laneLayout(largestSum: number, most = 8): {bits: number, lanes: number} {
    const bits = Math.max(1, Math.ceil(Math.log2(largestSum + 1)));
    return {bits, lanes: Math.max(1, Math.min(most, Math.floor(53 / bits)))};
}

/** What 2^(bits·lane) is for each lane, the unit a count of that lane is added in. */
export function laneUnits(bits: number, lanes: number): number[] {
    return Array.from({length: lanes}, (_unused, lane) => 2 ** (bits * lane));
}

/**
 * Whole-number sums of packed counts (one per group of rows) split into each lane's sums, one array per lane;
 * `into`, when given arrays of the right size, is filled and returned instead of new arrays.
 */
export function unpackLanes(sums: Float64Array, counts: Pick<PackedCounts, "lanes" | "bits">, into?: Float64Array[]): Float64Array[] {
    const unit = 2 ** counts.bits, inverse = 2 ** -counts.bits, last = counts.lanes - 1;
    const reuse = into !== undefined && into.length === counts.lanes && into.every((lane) => lane.length === sums.length);
    const lanes = reuse ? into : Array.from({length: counts.lanes}, () => new Float64Array(sums.length));
    if (reuse) for (const lane of lanes) lane.fill(0);
    for (let group = 0; group < sums.length; group++) {
        let rest = sums[group];
        for (let lane = 0; rest !== 0; lane++) {
            const above = lane === last ? 0 : Math.floor(rest * inverse);
            lanes[lane][group] = rest - above * unit;
            rest = above;
        }
    }
    return lanes;
}

/** One lane's counts per position, for a statistic that reads a single resample. */
export function laneCounts(counts: PackedCounts, lane: number, into: Int32Array): Int32Array {
    const unit = 2 ** counts.bits, below = 2 ** -(counts.bits * lane);
    const {packed} = counts;
    for (let position = 0; position < packed.length; position++) {
        const rest = Math.floor(packed[position] * below);
        into[position] = rest - Math.floor(rest / unit) * unit;
    }
    return into;
}

/** Draws `count` clusters of `count`, with replacement: adds `unit` to `packed` at each cluster drawn. */
export function addClusterDraws(random: SeededRandom, packed: Float64Array, count: number, unit: number): void {
    for (let draw = 0; draw < count; draw++) packed[Math.floor(random.next() * count)] += unit;
}

/**
 * Each position's cluster among `groups` (the clusters' positions); `groups.length`, a cluster never drawn, for a
 * position in none.
 */
export function clusterOfPositions(groups: readonly Int32Array[], positions: number): Int32Array {
    const clusterOf = new Int32Array(positions).fill(groups.length);
    groups.forEach((members, cluster) => {
        for (const position of members) clusterOf[position] = cluster;
    });
    return clusterOf;
}

/**
 * The clusters' packed counts given to every row of each: a resample counts a row as often as its cluster was
 * drawn. One pass over the rows, where adding a drawn cluster's count to each of its rows would scatter.
 */
export function spreadClusterCounts(clusterCounts: Float64Array, clusterOf: Int32Array, packed: Float64Array): void {
    for (let position = 0; position < clusterOf.length; position++) packed[position] = clusterCounts[clusterOf[position]];
}
