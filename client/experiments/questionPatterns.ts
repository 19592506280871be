import {RowPatterns} from "./rowPatterns.ts";
import {unpackLanes, type PackedCounts} from "./resampleLanes.ts";
import {weighBatch} from "./sharedWeighing.ts";

// A question's rows as patterns of their terms, and the weighted sums its metrics are computed from, for any
// weighting of the rows: unweighted, one bootstrap resample, or a batch of resamples packed in lanes
// (resampleLanes.ts). Rows with the same terms share a pattern (rowPatterns.ts): a resample costs one weight per row
// and one pass over the patterns. The sums equal those over the rows.

/** A row's terms: [right 0/1, Brier, log loss, |error|, ECE x, confusion cell, ECE bin slot, AUC slot or -1]. */
export const termWidth = 8;
/** Where the Brier, log-loss and |error| terms sit. */
const meanTerms = 1;

/**
 * Questions whose rows have more patterns than this share of their rows (a score question's Brier terms are nearly
 * all different) group their rows by the other terms, and each of the three mean terms on its own.
 */
const compressible = 1 / 4;

/** What a question's metrics read: weighted counts and sums of its rows' terms. */
export type QuestionSums = {
    total: number, hits: number, brierSum: number, logLossSum: number, errorSum: number,
    /** Weight per confusion cell (label · options + predicted). */
    confusion: Float64Array,
    /** Per ECE bin: [weight of outcome 1, sum of x, weight of outcome 0, sum of x]. */
    bins: Float64Array,
    /** Weight per AUC slot: the yes rows per distinct P(yes), then the no rows. */
    auc: Float64Array
};

/** How many confusion cells, ECE bins and AUC slots a question has. */
export type QuestionShape = {cells: number, bins: number, aucSlots: number};

/** Per lane: [total, hits, Brier sum, log-loss sum, |error| sum]. */
const scalarWidth = 5;

export class QuestionPatterns {
    private readonly main: RowPatterns;
    /** With an uncompressible question, its Brier, log-loss and |error| terms, each grouped on its own. */
    private readonly means: RowPatterns[] = [];
    /** The main patterns' slots as whole numbers, for indexing: [cell, bin slot, AUC slot] each. */
    private readonly slots: Int32Array;
    /** Numbers per lane: confusion cells, ECE bin slots (4 per bin), AUC slots. */
    private readonly sizes: {cells: number, binSlots: number, aucSlots: number};
    // Every lane's sums side by side, kept from batch to batch.
    private scalars = new Float64Array(0);
    private confusion = new Float64Array(0);
    private bins = new Float64Array(0);
    private auc = new Float64Array(0);
    /** Each lane's weights per pattern, reused from batch to batch. */
    private laneWeights: Float64Array[] = [];
    private meanLaneWeights: Float64Array[][] = [];

    /** `terms` holds `termWidth` numbers per row of `rowPositions`, in that order. */
    public constructor(rowPositions: readonly number[], terms: Float64Array, positions: number, shape: QuestionShape) {
        this.sizes = {cells: shape.cells, binSlots: shape.bins * 4, aucSlots: shape.aucSlots};
        const whole = patternsOf(rowPositions, terms, positions, false, Math.max(256, rowPositions.length * compressible));
        if (whole !== null) this.main = whole;
        else {
            this.main = patternsOf(rowPositions, terms, positions, true, Infinity)!;
            const key = new Float64Array(1);
            this.means = [0, 1, 2].map((term) => {
                const patterns = new RowPatterns(positions, 1);
                rowPositions.forEach((position, row) => {
                    key[0] = terms[row * termWidth + meanTerms + term];
                    patterns.add(position, key);
                });
                return patterns;
            });
        }
        const values = this.main.values;
        this.slots = Int32Array.from({length: this.main.count * 3}, (_unused, index) => values[Math.floor(index / 3) * termWidth + 5 + index % 3]);
    }

    /** The sums over the rows at `positions`, each counted `counts[position]` times (once when null); reused by the next call. */
    public summed(positions: Int32Array, counts: Int32Array | null): QuestionSums {
        return this.accumulate((patterns) => patterns.weigh(positions, counts), 1, 53)[0];
    }

    /** The sums of each resample in a batch (lane); reused by the next call. */
    public summedLanes(positions: Int32Array, counts: PackedCounts): QuestionSums[] {
        return this.accumulate((patterns) => weighBatch(patterns, positions, counts), counts.lanes, counts.bits);
    }

    /**
     * One pass over each pattern set: a pattern's weight (packed in lanes, or a plain count with one lane) split into
     * its lanes, and each lane's weight added to that lane's sums.
     */
    private accumulate(weighed: (patterns: RowPatterns) => Float64Array, lanes: number, bits: number): QuestionSums[] {
        const {cells, binSlots: binWidth, aucSlots} = this.sizes;
        if (this.scalars.length !== lanes * scalarWidth) {
            this.scalars = new Float64Array(lanes * scalarWidth);
            this.confusion = new Float64Array(lanes * cells);
            this.bins = new Float64Array(lanes * binWidth);
            this.auc = new Float64Array(lanes * aucSlots);
        }
        const {scalars, confusion, bins, auc, slots} = this;
        scalars.fill(0);
        confusion.fill(0);
        bins.fill(0);
        auc.fill(0);
        const weights = weighed(this.main), patterns = this.main.count;
        const laneWeights = lanes === 1 ? [weights] : this.laneWeights = unpackLanes(weights, {lanes, bits}, this.laneWeights);
        for (let lane = 0; lane < lanes; lane++) {
            const sums = sumPatterns(laneWeights[lane], patterns, this.main.values, slots, confusion.subarray(lane * cells, (lane + 1) * cells),
                bins.subarray(lane * binWidth, (lane + 1) * binWidth), auc.subarray(lane * aucSlots, (lane + 1) * aucSlots));
            scalars.set(sums, lane * scalarWidth);
        }
        this.means.forEach((meanPatterns, term) => {
            const meanWeights = weighed(meanPatterns);
            const perLane = lanes === 1 ? [meanWeights] : this.meanLaneWeights[term] = unpackLanes(meanWeights, {lanes, bits}, this.meanLaneWeights[term]);
            for (let lane = 0; lane < lanes; lane++) scalars[lane * scalarWidth + 2 + term] += dot(perLane[lane], meanPatterns.values, meanPatterns.count);
        });
        return Array.from({length: lanes}, (_unused, lane): QuestionSums => {
            const scalar = lane * scalarWidth;
            return {total: scalars[scalar], hits: scalars[scalar + 1], brierSum: scalars[scalar + 2], logLossSum: scalars[scalar + 3], errorSum: scalars[scalar + 4],
                confusion: confusion.subarray(lane * cells, (lane + 1) * cells), bins: bins.subarray(lane * binWidth, (lane + 1) * binWidth), auc: auc.subarray(lane * aucSlots, (lane + 1) * aucSlots)};
        });
    }
}

/** Σ weights[i] · values[i] over the first `count`. */
function dot(weights: Float64Array, values: Float64Array, count: number): number {
    let sum = 0;
    for (let index = 0; index < count; index++) sum += weights[index] * values[index];
    return sum;
}

/** Per-lane scalar sums, reused: [total, hits, Brier sum, log-loss sum, |error| sum]. */
const laneScalars = new Float64Array(scalarWidth);

/**
 * One resample's sums over a question's patterns, each weighed `weights[pattern]`: the scalar sums (returned, and
 * reused by the next call) in locals, the confusion cells, ECE bins and AUC slots added to the arrays given.
 */
function sumPatterns(weights: Float64Array, patterns: number, values: Float64Array, slots: Int32Array, confusion: Float64Array, bins: Float64Array, auc: Float64Array): Float64Array {
    let total = 0, hits = 0, brier = 0, logLoss = 0, error = 0;
    for (let pattern = 0; pattern < patterns; pattern++) {
        const weight = weights[pattern];
        if (weight === 0) continue;
        const term = pattern * termWidth, slot = pattern * 3;
        total += weight;
        hits += weight * values[term];
        brier += weight * values[term + 1];
        logLoss += weight * values[term + 2];
        error += weight * values[term + 3];
        confusion[slots[slot]] += weight;
        const bin = slots[slot + 1];
        bins[bin] += weight;
        bins[bin + 1] += weight * values[term + 4];
        const level = slots[slot + 2];
        if (level >= 0) auc[level] += weight;
    }
    laneScalars[0] = total;
    laneScalars[1] = hits;
    laneScalars[2] = brier;
    laneScalars[3] = logLoss;
    laneScalars[4] = error;
    return laneScalars;
}

/**
 * The rows' patterns of all their terms, or with `withoutMeans`, of all but the Brier, log-loss and |error| terms;
 * null as soon as there are more than `most`.
 */
function patternsOf(rowPositions: readonly number[], terms: Float64Array, positions: number, withoutMeans: boolean, most: number): RowPatterns | null {
    const patterns = new RowPatterns(positions, termWidth);
    const key = new Float64Array(termWidth);
    for (let row = 0; row < rowPositions.length; row++) {
        for (let term = 0; term < termWidth; term++) key[term] = terms[row * termWidth + term];
        if (withoutMeans) key.fill(0, meanTerms, meanTerms + 3);
        patterns.add(rowPositions[row], key);
        if (patterns.count > most) return null;
    }
    return patterns;
}
