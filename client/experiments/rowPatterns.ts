// Rows that a table's metrics see alike share a pattern: a vector of numbers (a row's terms and slots) kept once,
// with the pattern of every position. A bootstrap resample (how many times each row was drawn) then becomes one
// weight per pattern, and the table sums its terms over the patterns instead of the rows: with probabilities
// rounded to hundredths, as the API sends them, a question's 100,000 rows fall into a few hundred or thousand
// patterns. The sums are the same as over the rows (each pattern's terms times the weight of its rows).

import {unpackLanes, type PackedCounts} from "./resampleLanes.ts";
import {weighBatch} from "./sharedWeighing.ts";

/** Bits of a number, for hashing a vector. */
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

function hashOf(vector: ArrayLike<number>): number {
    let hash = 0x811c9dc5;
    for (let index = 0; index < vector.length; index++) {
        bits[0] = vector[index];
        hash = Math.imul(hash ^ words[0], 0x01000193);
        hash = Math.imul(hash ^ words[1], 0x01000193);
    }
    return (hash ^ (hash >>> 15)) >>> 0;
}

/** Vectors of one width, numbered in the order first seen; each position names its pattern (-1: none). */
export class RowPatterns {
    /** The pattern of each position; -1 where no row was added. */
    public readonly of: Int32Array;
    private vectors: Float64Array;
    private patterns = 0;
    private slots = new Int32Array(1024);
    // Reused by every weighing (thousands per summary), each read before the next one starts.
    private weights = new Float64Array(0);
    /** The patterns of the positions in as few bytes as they fit (a weighing reads them all), made at the first one. */
    private ids: Ids | null = null;

    public constructor(positions: number, public readonly width: number) {
        this.of = new Int32Array(positions).fill(-1);
        this.vectors = new Float64Array(64 * width);
    }

    /** How many distinct vectors were added. */
    public get count(): number {
        return this.patterns;
    }

    /** All patterns' vectors, one after another (`width` numbers each). */
    public get values(): Float64Array {
        return this.vectors;
    }

    /** Gives `position` the pattern of `vector` (a new one when no earlier row had it); returns the pattern. */
    public add(position: number, vector: ArrayLike<number>): number {
        const pattern = this.find(vector);
        this.of[position] = pattern;
        this.ids = null;
        return pattern;
    }

    /**
     * Weight per pattern of the rows at `positions`, each counted `counts[position]` times (once when null); counts
     * packed in lanes (resampleLanes.ts) give their packed sums. Reused by the next call.
     */
    public weigh(positions: Int32Array, counts: Int32Array | Float64Array | null): Float64Array {
        if (this.weights.length !== this.patterns) this.weights = new Float64Array(this.patterns);
        // Positions without a pattern are never weighed, so they may read as pattern 0 there.
        const ids = this.ids ??= this.patterns <= 0xffff ? narrowIds(this.of) : this.of;
        const weights = this.weights.fill(0);
        if (counts === null) countPositions(weights, ids, positions);
        // Every position, in order (positions are distinct and ascending): no need to read them.
        else if (positions.length === this.of.length) weighEvery(weights, ids, counts);
        else weighPositions(weights, ids, positions, counts);
        return weights;
    }

    /** The weights per pattern of each resample in a batch (one array per lane) of the rows at `positions`. */
    public weighLanes(positions: Int32Array, counts: PackedCounts): Float64Array[] {
        return unpackLanes(weighBatch(this, positions, counts), counts);
    }

    /** Open addressing over the vectors' hashes; slots hold pattern + 1 (0: empty), kept under half full. */
    private find(vector: ArrayLike<number>): number {
        if (vector.length !== this.width) throw new Error(`a pattern has ${this.width} numbers, not ${vector.length}`);
        let mask = this.slots.length - 1;
        for (let slot = hashOf(vector) & mask; ; slot = (slot + 1) & mask) {
            const held = this.slots[slot];
            if (held === 0) break;
            if (this.equals(held - 1, vector)) return held - 1;
        }
        const pattern = this.patterns++;
        if (this.vectors.length < this.patterns * this.width) {
            const grown = new Float64Array(this.vectors.length * 2);
            grown.set(this.vectors);
            this.vectors = grown;
        }
        this.vectors.set(vector, pattern * this.width);
        if (this.patterns * 2 > this.slots.length) this.slots = new Int32Array(this.slots.length * 2);
        else {
            this.place(pattern, mask);
            return pattern;
        }
        mask = this.slots.length - 1;
        for (let each = 0; each < this.patterns; each++) this.place(each, mask);
        return pattern;
    }

    private place(pattern: number, mask: number): void {
        let slot = hashOf(this.vectors.subarray(pattern * this.width, (pattern + 1) * this.width)) & mask;
        while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
        this.slots[slot] = pattern + 1;
    }

    private equals(pattern: number, vector: ArrayLike<number>): boolean {
        const offset = pattern * this.width;
        for (let index = 0; index < this.width; index++) if (!Object.is(this.vectors[offset + index], vector[index])) return false;
        return true;
    }
}

/** The patterns as 16-bit numbers (they fit: at most 65,535 of them), -1 read as 0. */
function narrowIds(of: Int32Array): Uint16Array {
    const ids = new Uint16Array(of.length);
    for (let position = 0; position < of.length; position++) ids[position] = of[position] < 0 ? 0 : of[position];
    return ids;
}

// The weighing loops, each on its own so that V8 optimises each for the arrays it meets; four rows a step, which V8
// runs more than twice as fast as one.

function countPositions(weights: Float64Array, of: Uint16Array | Int32Array, positions: Int32Array): void {
    for (let index = 0; index < positions.length; index++) weights[of[positions[index]]]++;
}

function weighEvery(weights: Float64Array, of: Uint16Array | Int32Array, counts: Int32Array | Float64Array): void {
    const end = of.length - of.length % 4;
    for (let position = 0; position < end; position += 4) {
        weights[of[position]] += counts[position];
        weights[of[position + 1]] += counts[position + 1];
        weights[of[position + 2]] += counts[position + 2];
        weights[of[position + 3]] += counts[position + 3];
    }
    for (let position = end; position < of.length; position++) weights[of[position]] += counts[position];
}

function weighPositions(weights: Float64Array, of: Uint16Array | Int32Array, positions: Int32Array, counts: Int32Array | Float64Array): void {
    const end = positions.length - positions.length % 4;
    for (let index = 0; index < end; index += 4) {
        const first = positions[index], second = positions[index + 1], third = positions[index + 2], fourth = positions[index + 3];
        weights[of[first]] += counts[first];
        weights[of[second]] += counts[second];
        weights[of[third]] += counts[third];
        weights[of[fourth]] += counts[fourth];
    }
    for (let index = end; index < positions.length; index++) weights[of[positions[index]]] += counts[positions[index]];
}

/** Pattern ids per position, in 16 bits where they fit. */
export type Ids = Uint16Array | Int32Array;
