import type {CellResult, Dataset, ExperimentSpec} from "./types.ts";
import {repeatsOf} from "./repeats.ts";

// Two kept experiments compared as one: when both ran on the same rows of the same data, their variants go side by
// side in one experiment (named #1 A, #2 A...) and each variant of the second is tested against its namesake in the
// first (else the first's first variant of its kind), with the same paired tests as within one experiment. On
// different rows there is no paired test: a difference would mix the change with the rows.

export type KeptRun = {name: string, spec: ExperimentSpec, dataset: Dataset, rowIndexes: readonly number[], cells: readonly CellResult[]};

/** Whether two runs took the same rows, in the same order, with the same cells in every column of those rows. */
export function sameRows(a: KeptRun, b: KeptRun): boolean {
    if (a.rowIndexes.length !== b.rowIndexes.length || a.dataset.columns.join("\u0000") !== b.dataset.columns.join("\u0000")) return false;
    return a.rowIndexes.every((rowIndex, position) => JSON.stringify(a.dataset.rows[rowIndex]) === JSON.stringify(b.dataset.rows[b.rowIndexes[position]]));
}

/**
 * The two runs as one experiment on the first's rows (the second's cells moved to the first's row indexes), with
 * the pairs to test: each variant of the second against the first's variant of the same name and kind, else the
 * first's first variant of its kind. Null when they did not run on the same rows, or asked them a different number of times.
 */
export function jointRun(a: KeptRun, b: KeptRun): {spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], cells: CellResult[], pairs: Array<[number, number]>} | null {
    // A row's answers are one cluster of K: two runs are tested together at the same number of repeats.
    if (!sameRows(a, b) || repeatsOf(a.spec) !== repeatsOf(b.spec)) return null;
    const offset = a.spec.variants.length;
    const rowOf = new Map(b.rowIndexes.map((rowIndex, position) => [rowIndex, a.rowIndexes[position]]));
    const variants = [...a.spec.variants.map((variant) => ({...variant, name: `#1 ${variant.name}`})), ...b.spec.variants.map((variant) => ({...variant, name: `#2 ${variant.name}`}))];
    const kind = (variant: ExperimentSpec["variants"][number]) => variant.version.prompt.kind;
    const pairs = b.spec.variants.flatMap((variant, index): Array<[number, number]> => {
        const namesake = a.spec.variants.findIndex((other) => other.name === variant.name && kind(other) === kind(variant));
        const baseline = namesake >= 0 ? namesake : a.spec.variants.findIndex((other) => kind(other) === kind(variant));
        return baseline < 0 ? [] : [[baseline, offset + index]];
    });
    const cells = [...a.cells, ...b.cells.flatMap((cell) => {
        const rowIndex = rowOf.get(cell.rowIndex);
        return rowIndex === undefined ? [] : [{...cell, rowIndex, variant: offset + cell.variant}];
    })];
    return {spec: {...a.spec, variants, checks: [...a.spec.checks, ...b.spec.checks.filter((check) => !a.spec.checks.some((other) => JSON.stringify(other) === JSON.stringify(check)))]},
        dataset: a.dataset, rowIndexes: [...a.rowIndexes], cells, pairs};
}
