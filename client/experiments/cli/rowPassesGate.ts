import type {InputProblem} from "../dataset.ts";
import {repeatsOf} from "../repeats.ts";
import type {CellResult, ExperimentSpec} from "../types.ts";

// `svc-studio eval --row-passes m`: with repeats, every row must pass (every check) in at least m of its K answers,
// on every chat variant, whatever the average: "every row passes in at least 2 of 3 repeats". An errored answer,
// or one the run has not stored, does not pass.

/** Why --row-passes cannot apply to this experiment, if it cannot. */
export function rowPassesProblem(least: number, spec: ExperimentSpec): InputProblem | null {
    const repeats = repeatsOf(spec);
    if (!spec.variants.some((variant) => variant.version.prompt.kind === "chat"))
        return {path: "--row-passes", message: "counts the passing answers of chat variants, and this experiment has none"};
    if (least > repeats)
        return {path: "--row-passes", message: `asks for ${least} passing answers per row, but the experiment asks each row ${repeats} time${repeats === 1 ? "" : "s"} ("repeats" in the file)`};
    return null;
}

/** Rows (1-based dataset rows) whose passing answers fall short, per chat variant. */
export type RowPassesOutcome = {variant: string, rows: Array<{row: number, passed: number}>};

/** Each chat variant's rows that passed in fewer than `least` of their answers. */
export function rowPassesShortfalls(least: number, spec: ExperimentSpec, rowIndexes: readonly number[], cells: readonly CellResult[]): RowPassesOutcome[] {
    return spec.variants.flatMap((variant, index) => {
        if (variant.version.prompt.kind !== "chat") return [];
        const passed = new Map<number, number>(rowIndexes.map((rowIndex) => [rowIndex, 0]));
        for (const cell of cells) {
            if (cell.variant !== index || !passed.has(cell.rowIndex)) continue;
            if (cell.ok && (cell.checks ?? []).every((check) => check.pass)) passed.set(cell.rowIndex, passed.get(cell.rowIndex)! + 1);
        }
        return [{variant: variant.name, rows: [...passed].filter(([, count]) => count < least).map(([rowIndex, count]) => ({row: rowIndex + 1, passed: count}))}];
    });
}

const shownRows = 10;

/** The gate's outcome in one line: met, or the rows that fell short on each variant (the first ten of each). */
export function rowPassesMessage(least: number, repeats: number, outcomes: readonly RowPassesOutcome[]): {ok: boolean, message: string} {
    const name = `rows passing in at least ${least} of ${repeats}`;
    const short = outcomes.filter((outcome) => outcome.rows.length > 0);
    if (short.length === 0) return {ok: true, message: `${name}: met on every chat variant`};
    const parts = short.map(({variant, rows}) => `${variant} ${rows.length} row${rows.length === 1 ? "" : "s"} (${rows.slice(0, shownRows).map(({row, passed}) => `row ${row}: ${passed} of ${repeats}`).join(", ")}${rows.length > shownRows ? `, and ${rows.length - shownRows} more` : ""})`);
    return {ok: false, message: `${name}: missed, ${parts.join("; ")}`};
}
