import {columnTypeOf} from "../../client/experiments/dataset.ts";
import {fitCells} from "./DatasetStore.ts";
import {nextRevision} from "./DocumentStore.ts";
import type {AppDatabase} from "./AppDatabase.ts";

/** The documents earlier versions kept datasets in: the list, and each dataset's rows in parts. */
const listKey = "svc-studio-datasets";
const rowsKeyPattern = /^svc-studio-dataset-(.+)-rows-(\d+)$/;

type LegacyInfo = {id: string, name: string, columns: string[], columnTypes?: string[], labelColumns?: string[], inputColumns?: string[], createdAt?: number, updatedAt?: number};

/**
 * Moves the datasets of the documents layout (the list document and the row documents, in parts) into the datasets
 * tables, in one transaction: each dataset with all its rows, and the documents it came from deleted. A dataset already
 * in the tables is not replaced. Row documents with no entry in the list (left behind when the list was lost) become
 * datasets named "Recovered rows …", so nothing is dropped; a document whose text does not parse is left where it is,
 * and the documents table keeps reporting it. Answers how many datasets were moved.
 */
export function moveDatasetDocuments(db: AppDatabase): number {
    return db.transaction(() => {
        const rowDocuments = db.statement("SELECT key, value FROM documents WHERE key LIKE 'svc-studio-dataset-%-rows-%'").all() as Array<{key: string, value: string}>;
        const listText = (db.statement("SELECT value FROM documents WHERE key = ?").get(listKey) as {value: string} | undefined)?.value;
        if (rowDocuments.length === 0 && listText === undefined) return 0;
        const parts = new Map<string, Array<{part: number, key: string, rows: unknown[] | null}>>();
        for (const document of rowDocuments) {
            const match = rowsKeyPattern.exec(document.key);
            if (match === null) continue;
            parts.set(match[1], [...parts.get(match[1]) ?? [], {part: Number(match[2]), key: document.key, rows: parseRows(document.value)}]);
        }
        const list = listText === undefined ? [] : parseList(listText);
        // A list that does not parse stays, reported by the documents table; its rows wait with it.
        if (list === null) return 0;
        let moved = 0;
        const listed = new Set<string>();
        for (const info of list) {
            listed.add(info.id);
            if (insertDataset(db, info, parts.get(info.id) ?? [])) moved++;
        }
        for (const [id, found] of parts) {
            if (listed.has(id)) continue;
            const rows = found.flatMap((part) => part.rows ?? []);
            const width = Math.max(0, ...rows.map((row) => Array.isArray(row) ? row.length : 0));
            const columns = Array.from({length: width}, (_, index) => `column ${index + 1}`);
            if (insertDataset(db, {id, name: `Recovered rows ${id}`, columns, inputColumns: columns}, found)) moved++;
        }
        if (listText !== undefined) db.statement("DELETE FROM documents WHERE key = ?").run(listKey);
        return moved;
    });
}

/** Inserts one dataset from its parts and deletes the parts that read; false when the tables already hold that id. */
function insertDataset(db: AppDatabase, info: LegacyInfo, parts: Array<{part: number, key: string, rows: unknown[] | null}>): boolean {
    const readable = parts.filter((part) => part.rows !== null).sort((a, b) => a.part - b.part);
    for (const part of readable) db.statement("DELETE FROM documents WHERE key = ?").run(part.key);
    if (db.statement("SELECT 1 FROM datasets WHERE id = ?").get(info.id) !== undefined) return false;
    const width = info.columns.length;
    const rows = readable.flatMap((part) => part.rows!).map((row) => fitCells(row, width).slice(0, width));
    const insert = db.statement("INSERT INTO dataset_rows (dataset_id, position, cells) VALUES (?, ?, ?)");
    rows.forEach((cells, position) => insert.run(info.id, position, JSON.stringify(cells)));
    const columnTypes = info.columnTypes?.length === width ? info.columnTypes : info.columns.map((_, column) => columnTypeOf(rows, column));
    const known = (list: string[] | undefined) => (list ?? []).filter((column) => info.columns.includes(column));
    const now = Date.now();
    db.statement("INSERT INTO datasets (id, name, info, row_count, created_at, updated_at, revision) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
        info.id, info.name, JSON.stringify({columns: info.columns, columnTypes, labelColumns: known(info.labelColumns), inputColumns: known(info.inputColumns)}),
        rows.length, info.createdAt ?? now, info.updatedAt ?? now, nextRevision(db));
    return true;
}

function parseList(text: string): LegacyInfo[] | null {
    try {
        const list = (JSON.parse(text) as {state?: {datasets?: unknown}} | null)?.state?.datasets;
        return (Array.isArray(list) ? list : []).filter((item): item is LegacyInfo =>
            typeof item?.id === "string" && typeof item.name === "string" && Array.isArray(item.columns) && item.columns.every((column: unknown) => typeof column === "string"));
    } catch {
        return null;
    }
}

function parseRows(text: string): unknown[] | null {
    try {
        const rows = JSON.parse(text) as unknown;
        return Array.isArray(rows) ? rows : null;
    } catch {
        return null;
    }
}
