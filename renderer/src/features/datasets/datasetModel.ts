// What a dataset is made of and checked against, with no storage: columns and their types from the cells, the label
// and model-visible columns a new dataset starts with, the checks a new or grown dataset passes (row limit, duplicate
// rows), and its files (the Dataset JSON and CSV).
import type {CellValue, SheetRow} from "../../../../client/scoring/index.ts";
import {formatCsv, labelColumns} from "../../../../client/scoring/index.ts";
import {columnTypeOf, maxDatasetRows, repeatedRows} from "../../../../client/experiments/dataset.ts";
import type {ColumnType, Dataset} from "../../../../client/experiments/types.ts";

export {maxDatasetRows};

export function columnTypesOf(columns: readonly string[], rows: readonly SheetRow[]): ColumnType[] {
    return columns.map((_, index) => columnTypeOf(rows, index));
}

/**
 * The columns a new dataset marks as labels (expected values: names with label, gold, truth or expected, as the
 * Evaluation screen guesses them) and the columns the model sees (every other one).
 */
export function defaultColumnRoles(columns: readonly string[]): {labelColumns: string[], inputColumns: string[]} {
    const labels = labelColumns([], columns);
    return {labelColumns: columns.filter((column) => labels.has(column)), inputColumns: columns.filter((column) => !labels.has(column))};
}

/** Why `rowCount` rows cannot be kept as one dataset; null when they can. */
export function rowLimitProblem(rowCount: number): string | null {
    return rowCount > maxDatasetRows
        ? `${rowCount.toLocaleString("en-US")} rows is more than the ${maxDatasetRows.toLocaleString("en-US")} a dataset holds: keep the first ${maxDatasetRows.toLocaleString("en-US")}, or sample or split the file first.`
        : null;
}

/** Row numbers (1-based) shown in the warning before "…". */
const shownRows = 5;

/**
 * The warning shown under a dataset with rows that repeat an earlier row exactly (allowed, but each copy counts in every
 * metric, and an experiment on them is refused), null when every row is distinct.
 */
export function duplicateWarning(rows: readonly SheetRow[]): string | null {
    const repeats = repeatedRows(rows, rows.map((_, index) => index));
    const count = repeats.length;
    if (count === 0) return null;
    const rowNumbers = repeats.slice(0, shownRows).map(([row]) => row + 1);
    return `${count.toLocaleString("en-US")} row${count === 1 ? " repeats" : "s repeat"} an earlier row exactly (row${rowNumbers.length === 1 ? "" : "s"} ${rowNumbers.join(", ")}${count > rowNumbers.length ? ", …" : ""}): each copy counts in every metric.`;
}

/** Column names for a new dataset: blank names become `column N`, repeats get ` (2)`, ` (3)` ... */
export function uniqueColumnNames(names: readonly string[]): string[] {
    const taken = new Set<string>();
    return names.map((raw, index) => {
        const base = raw.trim() || `column ${index + 1}`;
        let name = base;
        for (let copy = 2; taken.has(name); copy++) name = `${base} (${copy})`;
        taken.add(name);
        return name;
    });
}

/** A typed cell from what was typed in the grid: numbers (and true/false) in a column of that type, else the text. */
export function cellFromText(text: string, type: ColumnType): CellValue {
    if (text === "") return null;
    if (type === "number" && text.trim() !== "" && Number.isFinite(Number(text))) return Number(text);
    if (type === "boolean" && /^(true|false)$/i.test(text.trim())) return text.trim().toLowerCase() === "true";
    return text;
}

/** The dataset as a CSV file (header row first), with the byte-order mark Excel needs to read UTF-8. */
export function datasetCsv(dataset: Pick<Dataset, "columns" | "rows">): string {
    return formatCsv([dataset.columns, ...dataset.rows], {bom: true});
}

/** The dataset as its JSON file: the Dataset shape of client/experiments/types.ts, which experiment files inline. */
export function datasetJson(dataset: Dataset): string {
    return JSON.stringify(dataset, null, 1) + "\n";
}

const isCell = (value: unknown): value is CellValue => value === null || ["string", "number", "boolean"].includes(typeof value);

/**
 * Reads a dataset file (the JSON `datasetJson` writes, or an experiment file's inline dataset); throws naming the field
 * at fault. Column types are read again from the cells when missing; label and input columns must name columns.
 */
export function parseDatasetFile(text: string): Omit<Dataset, "id" | "createdAt" | "updatedAt"> {
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new Error(`Not a JSON file: ${(error as Error).message}`);
    }
    const file = (json as {dataset?: unknown})?.dataset !== undefined && (json as {format?: unknown}).format === "svc-experiment"
        ? (json as {dataset: unknown}).dataset : json;
    const raw = file as Partial<Record<keyof Dataset, unknown>>;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error("Not a dataset file: expected an object with columns and rows");
    if (!Array.isArray(raw.columns) || !raw.columns.every((column) => typeof column === "string")) throw new Error("columns: must be an array of strings");
    const columns = raw.columns as string[];
    if (new Set(columns).size !== columns.length) throw new Error("columns: two columns have the same name");
    if (!Array.isArray(raw.rows)) throw new Error("rows: must be an array of rows (arrays of cells)");
    const rowProblem = rowLimitProblem(raw.rows.length);
    if (rowProblem !== null) throw new Error(`rows: ${rowProblem}`);
    const rows = raw.rows.map((row, index) => {
        if (!Array.isArray(row) || row.length > columns.length || !row.every(isCell))
            throw new Error(`rows[${index}]: must be an array of at most ${columns.length} cells (strings, numbers, booleans or null)`);
        return columns.map((_, column) => (row[column] ?? null) as CellValue);
    });
    const names = (field: "labelColumns" | "inputColumns", fallback: string[]): string[] => {
        const value = raw[field];
        if (value === undefined) return fallback;
        if (!Array.isArray(value)) throw new Error(`${field}: must be an array of column names`);
        const unknown = value.find((name) => !columns.includes(name as string));
        if (unknown !== undefined) throw new Error(`${field}: ${JSON.stringify(unknown)} is not a column`);
        return value as string[];
    };
    const roles = defaultColumnRoles(columns);
    const types = Array.isArray(raw.columnTypes) && raw.columnTypes.length === columns.length
        && raw.columnTypes.every((type) => type === "string" || type === "number" || type === "boolean")
        ? raw.columnTypes as ColumnType[] : columnTypesOf(columns, rows);
    return {
        name: typeof raw.name === "string" && raw.name.trim() !== "" ? raw.name.trim() : "Imported dataset",
        columns,
        columnTypes: types,
        rows,
        labelColumns: names("labelColumns", roles.labelColumns),
        inputColumns: names("inputColumns", roles.inputColumns)
    };
}
