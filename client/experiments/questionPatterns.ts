import {RowPatterns} from "./rowPatterns.ts";
import {LaneBuffers, unpackLanes, type PackedCounts} from "./resampleLanes.ts";

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

export type QuestionShape = {cells: number, bins: number, aucSlots: number};

export class QuestionPatterns {
    private readonly main: RowPatterns;
    /** With an uncompressible question, its Brier, log-loss and |error| terms, each grouped on its own. */
    private readonly means: RowPatterns[] = [];
    /** The main patterns' slots as whole numbers, for indexing: [cell, bin slot, AUC slot] each. */
    private readonly slots: Int32Array;
    private readonly sums: QuestionSums;
    private readonly lanes = new LaneBuffers();
    private readonly meanLanes: LaneBuffers[];

    /** `terms` holds `termWidth` numbers per row of `rowPositions`, in that order. */
    public constructor(rowPositions: readonly number[], terms: Float64Array, positions: number, shape: QuestionShape) {
        this.main = patternsOf(rowPositions, terms, positions, false);
        if (this.main.count > Math.max(256, rowPositions.length * compressible)) {
            this.main = patternsOf(rowPositions, terms, positions, true);
            this.means = [0, 1, 2].map((term) => {
                const patterns = new RowPatterns(positions, 1);
                rowPositions.forEach((position, row) => patterns.add(position, [terms[row * termWidth + meanTerms + term]]));
                return patterns;
            });
        }
        this.meanLanes = this.means.map(() => new LaneBuffers());
        const values = this.main.values;
        this.slots = Int32Array.from({length: this.main.count * 3}, (_unused, index) => values[Math.floor(index / 3) * termWidth + 5 + index % 3]);
        this.sums = {total: 0, hits: 0, brierSum: 0, logLossSum: 0, errorSum: 0, confusion: new Float64Array(shape.cells), bins: new Float64Array(shape.bins * 4), auc: new Float64Array(shape.aucSlots)};
    }

    /** The sums over the rows at `positions`, each counted `counts[position]` times (once when null); reused by the next call. */
    public summed(positions: Int32Array, counts: Int32Array | null): QuestionSums {
        return this.add(this.main.weigh(positions, counts), this.means.map((patterns) => patterns.weigh(positions, counts)));
    }

    /** The sums of each resample in a batch, one lane at a time (`each` reads them before the next lane's). */
    public summedLanes<T>(positions: Int32Array, counts: PackedCounts, each: (sums: QuestionSums) => T): T[] {
        const {lanes, bits, packed} = counts;
        const main = this.lanes.take(lanes, this.main.count);
        unpackLanes(this.main.weigh(positions, packed), lanes, bits, main);
        const means = this.means.map((patterns, term) => {
            const buffers = this.meanLanes[term].take(lanes, patterns.count);
            unpackLanes(patterns.weigh(positions, packed), lanes, bits, buffers);
            return buffers;
        });
        return Array.from({length: lanes}, (_unused, lane) => each(this.add(main[lane], means.map((buffers) => buffers[lane]))));
    }

    private add(weights: Float64Array, meanWeights: readonly Float64Array[]): QuestionSums {
        const sums = this.sums, values = this.main.values, slots = this.slots;
        const {confusion, bins, auc} = sums;
        confusion.fill(0);
        bins.fill(0);
        auc.fill(0);
        let total = 0, hits = 0, brierSum = 0, logLossSum = 0, errorSum = 0;
        for (let pattern = 0; pattern < this.main.count; pattern++) {
            const weight = weights[pattern];
            if (weight === 0) continue;
            const term = pattern * termWidth, slot = pattern * 3;
            total += weight;
            hits += weight * values[term];
            brierSum += weight * values[term + 1];
            logLossSum += weight * values[term + 2];
            errorSum += weight * values[term + 3];
            confusion[slots[slot]] += weight;
            const bin = slots[slot + 1];
            bins[bin] += weight;
            bins[bin + 1] += weight * values[term + 4];
            const level = slots[slot + 2];
            if (level >= 0) auc[level] += weight;
        }
        const [brier, logLoss, error] = this.means.map((patterns, term) => weightedSum(patterns, meanWeights[term]));
        Object.assign(sums, {total, hits, brierSum: brierSum + (brier ?? 0), logLossSum: logLossSum + (logLoss ?? 0), errorSum: errorSum + (error ?? 0)});
        return sums;
    }
}

/** The rows' patterns of all their terms, or with `withoutMeans`, of all but the Brier, log-loss and |error| terms. */
function patternsOf(rowPositions: readonly number[], terms: Float64Array, positions: number, withoutMeans: boolean): RowPatterns {
    const patterns = new RowPatterns(positions, termWidth);
    const key = new Float64Array(termWidth);
    rowPositions.forEach((position, row) => {
        for (let term = 0; term < termWidth; term++) key[term] = terms[row * termWidth + term];
        if (withoutMeans) key.fill(0, meanTerms, meanTerms + 3);
        patterns.add(position, key);
    });
    return patterns;
}

/** Σ weight × value over the patterns of a one-number pattern set. */
function weightedSum(patterns: RowPatterns, weights: Float64Array): number {
    const values = patterns.values;
    let sum = 0;
    for (let pattern = 0; pattern < patterns.count; pattern++) sum += weights[pattern] * values[pattern];
    return sum;
}
