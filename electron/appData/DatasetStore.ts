import type {DatasetChange, DatasetRowEdit, DatasetRowsPage, DatasetWrite, SavedCell, SavedDatasetFields, SavedDatasetInfo} from "../../protocol/gateway/contract.ts";
import {datasetPageLimit} from "../../protocol/gateway/contract.ts";
import {GatewayError} from "../api/answers.ts";
import type {AppDatabase} from "./AppDatabase.ts";
import {nextRevision, RevisionConflict} from "./DocumentStore.ts";
import {checkName} from "./storedNames.ts";

type DatasetRow = {id: string, name: string, info: string, row_count: number, created_at: number, updated_at: number, revision: number};

/**
 * The saved datasets in the app's database: one row per dataset in `datasets` (its name, columns and their roles), one
 * row per data row in `dataset_rows` by position. A screen reads the list and then a page of rows; an edit writes one
 * row; an import writes every row in one transaction, so it is all there or not at all. Every write is committed
 * before it answers and names the revision it is based on: another window's write since is a 409, never overwritten.
 */
export class DatasetStore {
    private readonly database: () => Promise<AppDatabase>;

    public constructor(database: () => Promise<AppDatabase>) {
        this.database = database;
    }

    /** Every dataset, newest first, and a sentence for each whose stored description could not be read (left out). */
    public async list(): Promise<{datasets: SavedDatasetInfo[], problems: string[]}> {
        const db = await this.database();
        const datasets: SavedDatasetInfo[] = [];
        const unreadable: string[] = [];
        for (const row of db.statement("SELECT * FROM datasets ORDER BY updated_at DESC, id").all() as DatasetRow[]) {
            const info = infoOf(row);
            if (info === null) unreadable.push(`"${row.name}"`);
            else datasets.push(info);
        }
        const problems = unreadable.length === 0 ? [] : [`${unreadable.length === 1 ? "A dataset" : `${unreadable.length} datasets`} (${unreadable.join(", ")}) ` +
            `could not be read and ${unreadable.length === 1 ? "is" : "are"} left out; ${unreadable.length === 1 ? "it stays" : "they stay"} in ${db.filePath}, table datasets.`];
        return {datasets, problems};
    }

    /** Rows `offset` to `offset + limit` of a dataset; a row whose stored text does not read comes back as empty cells. */
    public async rows(id: string, offset: number, limit: number): Promise<DatasetRowsPage> {
        checkName("the dataset id", id);
        const db = await this.database();
        const dataset = this.current(db, id);
        if (dataset === undefined) throw notFound(id);
        const width = (infoOf(dataset)?.columns.length ?? 0);
        const rows = (db.statement("SELECT cells FROM dataset_rows WHERE dataset_id = ? AND position >= ? ORDER BY position LIMIT ?")
            .all(id, offset, Math.min(limit, datasetPageLimit)) as Array<{cells: string}>).map((row) => readCells(row.cells, width));
        return {rows, offset, total: dataset.row_count, revision: dataset.revision};
    }

    /** Writes a dataset whole (rows replaced) in one transaction; `write.revision` 0 creates it, and refuses if it exists. */
    public async put(id: string, write: DatasetWrite): Promise<SavedDatasetInfo> {
        checkName("the dataset id", id);
        const fields = checkFields(write.fields);
        const rows = write.rows.map((cells, index) => checkCells(cells, `rows[${index}]`, fields.columns.length));
        const db = await this.database();
        return db.transaction(() => {
            const current = this.current(db, id);
            if ((current?.revision ?? 0) !== write.revision) throw new RevisionConflict(`dataset "${current?.name ?? fields.name}"`, write.revision, current?.revision ?? 0);
            db.statement("DELETE FROM dataset_rows WHERE dataset_id = ?").run(id);
            const insert = db.statement("INSERT INTO dataset_rows (dataset_id, position, cells) VALUES (?, ?, ?)");
            rows.forEach((cells, position) => insert.run(id, position, JSON.stringify(cells)));
            const now = Date.now();
            return this.save(db, id, fields, rows.length, current?.created_at ?? write.createdAt ?? now, now);
        });
    }

    /** Applies a change (fields, then row edits in order) in one transaction, based on `change.revision`. */
    public async change(id: string, change: DatasetChange): Promise<SavedDatasetInfo> {
        checkName("the dataset id", id);
        const db = await this.database();
        return db.transaction(() => {
            const current = this.current(db, id);
            if (current === undefined) throw change.revision === 0 ? notFound(id) : new RevisionConflict(`dataset ${id}`, change.revision, 0);
            if (current.revision !== change.revision) throw new RevisionConflict(`dataset "${current.name}"`, change.revision, current.revision);
            const before = infoOf(current);
            if (before === null) throw new GatewayError(409, "dataset_unreadable", "invalid_request_error", `dataset "${current.name}" could not be read; it is kept as it is in ${db.filePath}`);
            const fields = checkFields({...before, ...change.fields});
            let count = current.row_count;
            (change.edits ?? []).forEach((edit, index) => {
                count = applyEdit(db, id, edit, count, fields.columns.length, `edits[${index}]`);
            });
            return this.save(db, id, fields, count, current.created_at, Math.max(Date.now(), current.updated_at + 1));
        });
    }

    /** Deletes a dataset and its rows, based on `revision`; false when there was none. */
    public async remove(id: string, revision: number): Promise<boolean> {
        checkName("the dataset id", id);
        const db = await this.database();
        return db.transaction(() => {
            const current = this.current(db, id);
            if (current === undefined) return false;
            if (current.revision !== revision) throw new RevisionConflict(`dataset "${current.name}"`, revision, current.revision);
            db.statement("DELETE FROM dataset_rows WHERE dataset_id = ?").run(id);
            db.statement("DELETE FROM datasets WHERE id = ?").run(id);
            return true;
        });
    }

    private current(db: AppDatabase, id: string): DatasetRow | undefined {
        return db.statement("SELECT * FROM datasets WHERE id = ?").get(id) as DatasetRow | undefined;
    }

    private save(db: AppDatabase, id: string, fields: SavedDatasetFields, rowCount: number, createdAt: number, updatedAt: number): SavedDatasetInfo {
        const revision = nextRevision(db);
        const {name, ...info} = fields;
        db.statement("INSERT INTO datasets (id, name, info, row_count, created_at, updated_at, revision) VALUES (?, ?, ?, ?, ?, ?, ?) " +
            "ON CONFLICT (id) DO UPDATE SET name = excluded.name, info = excluded.info, row_count = excluded.row_count, updated_at = excluded.updated_at, revision = excluded.revision")
            .run(id, name, JSON.stringify(info), rowCount, createdAt, updatedAt, revision);
        return {id, ...fields, rowCount, createdAt, updatedAt, revision};
    }
}

/** One row edit; answers the dataset's row count after it. Positions stay 0 to count - 1, with no gap. */
function applyEdit(db: AppDatabase, id: string, edit: DatasetRowEdit, count: number, width: number, at: string): number {
    const index = (last: number) => {
        const value = (edit as {index?: unknown}).index;
        if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > last)
            throw invalid(`${at}.index: must be a row position from 0 to ${last}, got ${JSON.stringify(value)}`);
        return value as number;
    };
    switch (edit.op) {
        case "set": {
            const position = index(count - 1);
            db.statement("UPDATE dataset_rows SET cells = ? WHERE dataset_id = ? AND position = ?").run(JSON.stringify(checkCells(edit.cells, `${at}.cells`, width)), id, position);
            return count;
        }
        case "insert": {
            const position = index(count);
            const cells = JSON.stringify(checkCells(edit.cells, `${at}.cells`, width));
            shift(db, id, position, 1);
            db.statement("INSERT INTO dataset_rows (dataset_id, position, cells) VALUES (?, ?, ?)").run(id, position, cells);
            return count + 1;
        }
        case "delete": {
            const position = index(count - 1);
            db.statement("DELETE FROM dataset_rows WHERE dataset_id = ? AND position = ?").run(id, position);
            shift(db, id, position + 1, -1);
            return count - 1;
        }
        case "append": {
            if (!Array.isArray(edit.rows)) throw invalid(`${at}.rows: must be an array of rows`);
            const insert = db.statement("INSERT INTO dataset_rows (dataset_id, position, cells) VALUES (?, ?, ?)");
            edit.rows.forEach((cells, offset) => insert.run(id, count + offset, JSON.stringify(checkCells(cells, `${at}.rows[${offset}]`, width))));
            return count + edit.rows.length;
        }
        default:
            throw invalid(`${at}.op: must be "set", "insert", "delete" or "append", got ${JSON.stringify((edit as {op?: unknown}).op)}`);
    }
}

/**
 * Moves the rows at `from` and after by `by` positions. Through negative positions first: the primary key is checked
 * row by row, so moving them in place could collide with a row not moved yet.
 */
function shift(db: AppDatabase, id: string, from: number, by: number) {
    db.statement("UPDATE dataset_rows SET position = -(position + ?) - 1 WHERE dataset_id = ? AND position >= ?").run(by, id, from);
    db.statement("UPDATE dataset_rows SET position = -position - 1 WHERE dataset_id = ? AND position < 0").run(id);
}

function infoOf(row: DatasetRow): SavedDatasetInfo | null {
    try {
        const info = JSON.parse(row.info) as Partial<SavedDatasetFields>;
        const fields = checkFields({...info, name: row.name});
        return {id: row.id, ...fields, rowCount: row.row_count, createdAt: row.created_at, updatedAt: row.updated_at, revision: row.revision};
    } catch {
        return null;
    }
}

/** A dataset's fields as they must be: names and roles that are lists of column names, a type per column. */
function checkFields(fields: Partial<SavedDatasetFields> | undefined): SavedDatasetFields {
    const value = fields ?? {};
    if (typeof value.name !== "string" || value.name.trim() === "") throw invalid("fields.name: must be a non-empty string");
    const names = (field: "columns" | "columnTypes" | "labelColumns" | "inputColumns"): string[] => {
        const list = value[field];
        if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) throw invalid(`fields.${field}: must be an array of strings`);
        return list;
    };
    const columns = names("columns");
    if (new Set(columns).size !== columns.length) throw invalid("fields.columns: two columns have the same name");
    const columnTypes = names("columnTypes");
    if (columnTypes.length !== columns.length) throw invalid(`fields.columnTypes: must give one type per column (${columns.length}), got ${columnTypes.length}`);
    const roles = (field: "labelColumns" | "inputColumns") => {
        const list = names(field);
        const unknown = list.find((column) => !columns.includes(column));
        if (unknown !== undefined) throw invalid(`fields.${field}: "${unknown}" is not a column of the dataset`);
        return list;
    };
    return {name: value.name, columns, columnTypes, labelColumns: roles("labelColumns"), inputColumns: roles("inputColumns")};
}

/** A row as stored: exactly one cell per column (missing ones null); anything but cells is refused. */
function checkCells(cells: unknown, at: string, width: number): SavedCell[] {
    if (!Array.isArray(cells) || cells.length > width || !cells.every(isCell))
        throw invalid(`${at}: must be an array of at most ${width} cells (strings, numbers, booleans or null)`);
    return Array.from({length: width}, (_, column) => (cells[column] ?? null) as SavedCell);
}

function readCells(text: string, width: number): SavedCell[] {
    try {
        return fitCells(JSON.parse(text), width);
    } catch {
        // Read as empty cells: the row keeps its position, so the rows after it keep theirs.
        return fitCells(null, width);
    }
}

/** A stored or earlier-saved row read leniently: at least `width` cells, anything that is not a cell read as null. */
export function fitCells(cells: unknown, width: number): SavedCell[] {
    const list = Array.isArray(cells) ? cells as unknown[] : [];
    return Array.from({length: Math.max(width, list.length)}, (_, column) => isCell(list[column]) ? list[column] as SavedCell : null);
}

function isCell(value: unknown): boolean {
    return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

function notFound(id: string) {
    return new GatewayError(404, "dataset_not_found", "invalid_request_error", `no dataset ${id}`);
}

function invalid(message: string) {
    return new GatewayError(400, "invalid_request", "invalid_request_error", message);
}
