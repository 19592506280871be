// Which rows of a dataset a sample takes (client/experiments/types.ts `Sample`): all, the first N, N at random from a
// seed (the same rows for the same seed, in dataset order), or those whose column equals, differs from or contains a
// value. Pure, so the preview count and the experiment that runs the sample agree.
import {seededRandom} from "../../../../base/common/seededRandom.ts";
import type {Dataset, Sample} from "../../../../client/experiments/types.ts";
import {cellText} from "./datasetModel.ts";

/** The 0-based indexes of the rows `sample` takes, in dataset order; throws when a filter names no column. */
export function sampleIndexes(dataset: Pick<Dataset, "columns" | "rows">, sample: Sample): number[] {
    const count = dataset.rows.length;
    const all = () => Array.from({length: count}, (_, index) => index);
    if (sample.kind === "all") return all();
    if (sample.kind === "first") return Array.from({length: Math.max(0, Math.min(count, Math.floor(sample.n)))}, (_, index) => index);
    if (sample.kind === "random") {
        const n = Math.max(0, Math.min(count, Math.floor(sample.n)));
        // A partial Fisher-Yates shuffle: the first n places of a seeded permutation.
        const indexes = all();
        const random = seededRandom(sample.seed);
        for (let place = 0; place < n; place++) {
            const pick = place + Math.floor(random() * (count - place));
            [indexes[place], indexes[pick]] = [indexes[pick], indexes[place]];
        }
        return indexes.slice(0, n).sort((a, b) => a - b);
    }
    const column = dataset.columns.indexOf(sample.column);
    if (column < 0) throw new Error(`the filter names the column ${JSON.stringify(sample.column)}, which the dataset does not have`);
    const wanted = sample.value.toLowerCase();
    const keep = (text: string) => sample.op === "equals" ? text === sample.value
        : sample.op === "not_equals" ? text !== sample.value : text.toLowerCase().includes(wanted);
    return all().filter((index) => keep(cellText(dataset.rows[index][column])));
}

/** "first 50 rows", "30 random rows (seed 7)", "rows where label equals yes": a sample in words. */
export function describeSample(sample: Sample): string {
    if (sample.kind === "all") return "every row";
    if (sample.kind === "first") return `the first ${sample.n} rows`;
    if (sample.kind === "random") return `${sample.n} random rows (seed ${sample.seed})`;
    const op = sample.op === "equals" ? "equals" : sample.op === "not_equals" ? "is not" : "contains";
    return `rows where ${sample.column} ${op} "${sample.value}"`;
}
