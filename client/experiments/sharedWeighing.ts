import type {PackedCounts} from "./resampleLanes.ts";
import type {Ids, RowPatterns} from "./rowPatterns.ts";

// Every pattern set a bootstrap batch weighs, weighed in one pass over the rows instead of one pass per set. A summary
// weighs many sets on the same counts (each variant's question and its mean terms, each pair's common rows): a set's
// own pass adds one count per row into a few hundred weights, where rows with the same pattern one after another wait
// for each other's additions. Read side by side, a row's count goes into eight sets' weights at once, independent
// additions the processor overlaps, and the counts are read once: the bootstrap's weighing runs about twice as fast.
//
// The sets are learnt as they are asked for: in a bootstrap's first batch each is weighed on its own and noted; from
// the next batch on, the first one asked for weighs them all. The weights are the same sums, added in the same order
// (rows ascending), as the set's own `weigh`.

/** Sets read side by side in one pass: a row's ids, one per set, sit next to each other; four when fewer are left. */
const widths = [8, 4];
/** The most bytes of ids kept (rows × sets × bytes per id); sets beyond it are weighed on their own. */
const mostIdBytes = 96 * 2 ** 20;

type WeighedSet = {patterns: RowPatterns, positions: Int32Array, group: number, offset: number, weights: Float64Array};
/** Up to `width` sets' ids per row (unused columns point at a slot of their own), and their weights' slots. */
type Group = {ids: Ids, width: number, weights: Float64Array};

export class SharedWeighing {
    private readonly sets: WeighedSet[] = [];
    private groups: Group[] = [];
    /** Sets noted since the groups were built: they join at the next batch. */
    private pending = false;
    private idBytes = 0;
    private batch = 0;
    private weighedBatch = -1;

    public constructor(private readonly positions: number) {}

    /** How many groups of sets are weighed side by side. */
    public get groupsBuilt(): number {
        return this.groups.length;
    }

    /** A new batch of counts: the next set asked for weighs every set on them. */
    public nextBatch(): void {
        this.batch++;
        if (this.pending) this.build();
    }

    /**
     * The packed sums per pattern of `patterns` over the rows at `positions` (ascending, distinct), each counted
     * `counts[position]` times: what `patterns.weigh(positions, counts)` gives. Valid until the next batch.
     */
    public weigh(patterns: RowPatterns, positions: Int32Array, counts: Float64Array): Float64Array {
        const known = this.sets.find((set) => set.patterns === patterns && set.positions === positions);
        if (known === undefined || known.group < 0) {
            if (known === undefined) this.note(patterns, positions);
            return patterns.weigh(positions, counts);
        }
        if (this.weighedBatch !== this.batch) {
            for (const group of this.groups) weighGroup(group, counts);
            this.weighedBatch = this.batch;
        }
        return known.weights;
    }

    private note(patterns: RowPatterns, positions: Int32Array): void {
        this.sets.push({patterns, positions, group: -1, offset: 0, weights: new Float64Array(0)});
        this.pending = true;
    }

    /**
     * Groups the sets, fewest patterns first (so that most groups' slots fit 16-bit ids), within the ids' budget. A
     * set left alone keeps its own pass, which reads only its rows.
     */
    private build(): void {
        this.pending = false;
        const waiting = this.sets.filter((set) => set.group < 0).sort((a, b) => a.patterns.count - b.patterns.count);
        let start = 0;
        while (waiting.length - start > 1) {
            const width = widths.find((each) => waiting.length - start > each / 2) ?? widths[widths.length - 1];
            const end = Math.min(waiting.length, start + width);
            const slots = waiting.slice(start, end).reduce((sum, set) => sum + set.patterns.count + 1, width);
            const wide = slots > 0xffff;
            const bytes = this.positions * width * (wide ? 4 : 2);
            if (this.idBytes + bytes > mostIdBytes) return;
            this.idBytes += bytes;
            this.groups.push(groupOf(waiting.slice(start, end), this.groups.length, this.positions, width, wide));
            start = end;
        }
    }
}

/** The group of `sets`: every row's id in each set (its slot: the set's offset plus its pattern, else the set's spare slot). */
function groupOf(sets: WeighedSet[], index: number, positions: number, width: number, wide: boolean): Group {
    let slots = 0;
    for (const set of sets) {
        set.group = index;
        set.offset = slots;
        slots += set.patterns.count + 1;
    }
    // Columns without a set add into spare slots of their own.
    const spare = slots;
    slots += width - sets.length;
    const ids = wide ? new Int32Array(positions * width) : new Uint16Array(positions * width);
    for (let column = 0; column < width; column++) {
        const set = sets[column];
        const unused = set === undefined ? spare + column - sets.length : set.offset + set.patterns.count;
        for (let position = 0; position < positions; position++) ids[position * width + column] = unused;
        if (set === undefined) continue;
        const {of} = set.patterns;
        for (const position of set.positions) if (of[position] >= 0) ids[position * width + column] = set.offset + of[position];
    }
    const weights = new Float64Array(slots);
    for (const set of sets) set.weights = weights.subarray(set.offset, set.offset + set.patterns.count);
    return {ids, width, weights};
}

/** One pass over the rows: each row's count added to its slot in each of the group's sets. */
function weighGroup({ids, width, weights}: Group, counts: Float64Array): void {
    weights.fill(0);
    if (width === 8) weighEight(weights, ids, counts);
    else weighFour(weights, ids, counts);
}

function weighEight(weights: Float64Array, ids: Ids, counts: Float64Array): void {
    for (let position = 0, at = 0; position < counts.length; position++, at += 8) {
        const count = counts[position];
        weights[ids[at]] += count;
        weights[ids[at + 1]] += count;
        weights[ids[at + 2]] += count;
        weights[ids[at + 3]] += count;
        weights[ids[at + 4]] += count;
        weights[ids[at + 5]] += count;
        weights[ids[at + 6]] += count;
        weights[ids[at + 7]] += count;
    }
}

function weighFour(weights: Float64Array, ids: Ids, counts: Float64Array): void {
    for (let position = 0, at = 0; position < counts.length; position++, at += 4) {
        const count = counts[position];
        weights[ids[at]] += count;
        weights[ids[at + 1]] += count;
        weights[ids[at + 2]] += count;
        weights[ids[at + 3]] += count;
    }
}

/** A batch's packed sums per pattern of `patterns` over the rows at `positions`: through its shared weighing when it has one. */
export function weighBatch(patterns: RowPatterns, positions: Int32Array, counts: PackedCounts): Float64Array {
    return counts.weighing?.weigh(patterns, positions, counts.packed) ?? patterns.weigh(positions, counts.packed);
}
