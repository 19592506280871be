import type {CellResult, ExperimentSpec, MetricKey} from "./types.ts";
import type {MetricTable} from "./metricTables.ts";
import type {DecisionDataset} from "./decisionTables.ts";
import {positionsOf, variantTables, type Positions} from "./variantTables.ts";
import {repeatsOf} from "./repeats.ts";

// A run's rows as a gate reads them: a stable key per row, so two runs (a baseline and this one, or a failing run
// and its re-run) are matched by what the row is, not where it stands; and per variant whether each row passed.

/** The rows of a dataset a run needs to be keyed: its columns, rows and which columns are labels or inputs. */
export type KeyedDataset = DecisionDataset & {inputColumns?: readonly string[]};

/** One run: the experiment, its dataset, the rows it ran on and its cells (as a results file holds them). */
export type RunData = {spec: ExperimentSpec, dataset: KeyedDataset, rowIndexes: readonly number[], cells: readonly CellResult[]};

export type PreparedRun = RunData & {positions: Positions, tables: MetricTable[][], byVariant: CellResult[][], keys: string[]};

export class RowKeyError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "RowKeyError";
    }
}

/**
 * Each sampled row's key, in sample order. With `keyColumn`, the row's value there (the same value twice is an
 * error: a key must name one row). Without, the row's input columns (the dataset's `inputColumns`, else every column
 * but the labels) as JSON, so a relabelled or re-ordered row keeps its key; a second row with the same input gets
 * "#2" after it, a third "#3".
 */
export function rowKeys(dataset: KeyedDataset, rowIndexes: readonly number[], keyColumn?: string): string[] {
    if (keyColumn !== undefined) {
        const column = dataset.columns.indexOf(keyColumn);
        if (column < 0) throw new RowKeyError(`no column named ${JSON.stringify(keyColumn)} to key rows by (columns: ${dataset.columns.join(", ")})`);
        const seen = new Map<string, number>();
        return rowIndexes.map((rowIndex) => {
            const key = String(dataset.rows[rowIndex]?.[column] ?? "");
            const earlier = seen.get(key);
            if (earlier !== undefined) throw new RowKeyError(`rows ${earlier + 1} and ${rowIndex + 1} have the same ${keyColumn} ${JSON.stringify(key)}: a row key must name one row`);
            seen.set(key, rowIndex);
            return key;
        });
    }
    const labels = new Set(dataset.labelColumns ?? []);
    const inputs = dataset.inputColumns !== undefined && dataset.inputColumns.length > 0 ? dataset.inputColumns : dataset.columns.filter((name) => !labels.has(name));
    const columns = inputs.map((name) => dataset.columns.indexOf(name)).filter((index) => index >= 0);
    const counts = new Map<string, number>();
    return rowIndexes.map((rowIndex) => {
        const key = JSON.stringify(columns.map((column) => dataset.rows[rowIndex]?.[column] ?? null));
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return count === 1 ? key : `${key}#${count}`;
    });
}

/** The run's tables and keys, read once for every gate. */
export function prepareRun(run: RunData, keyColumn?: string): PreparedRun {
    const positions = positionsOf(run.dataset, run.rowIndexes, repeatsOf(run.spec));
    const {tables, byVariant} = variantTables(run.spec, run.dataset, run.cells, positions);
    return {...run, positions, tables, byVariant, keys: rowKeys(run.dataset, run.rowIndexes, keyColumn)};
}

/** A pass / fail metric's table of one variant (uncalibrated; per question for decision variants), if it has one. */
export function outcomeTable(run: PreparedRun, variant: number, metric: MetricKey, question: string | null): {outcome: Uint8Array, used: Uint8Array} | null {
    const table = run.tables[variant]?.find((candidate) => !candidate.calibrated && (candidate.question ?? null) === question && candidate.outcomes.has(metric));
    return table === undefined ? null : {outcome: table.outcomes.get(metric)!, used: table.used};
}

/**
 * Whether each sampled row passed, for one variant, in sample order: a chat row passed every check (an errored row
 * failed), in every one of its answers when the experiment repeats rows; a decision row was answered right on every
 * question it is labelled on (an errored row failed). Null where the row has no result yet, or (decision) no label
 * for any question.
 */
export function rowsPassed(run: PreparedRun, variant: number): Array<boolean | null> {
    const {repeats} = run.positions;
    const passed = new Array<boolean | null>(run.positions.rows).fill(null);
    const tables = (run.tables[variant] ?? []).filter((table) => !table.calibrated);
    const primary: MetricKey = run.spec.variants[variant]?.version.prompt.kind === "decision" ? "accuracy" : "pass_rate";
    for (const table of tables) {
        const outcome = table.outcomes.get(primary);
        if (outcome === undefined) continue;
        table.used.forEach((used, position) => {
            const row = Math.floor(position / repeats);
            if (used === 1) passed[row] = (passed[row] ?? true) && outcome[position] === 1;
        });
    }
    for (const cell of run.byVariant[variant] ?? []) {
        const row = run.positions.rowPositionOf(cell.rowIndex);
        if (!cell.ok && row >= 0) passed[row] = false;
    }
    return passed;
}
