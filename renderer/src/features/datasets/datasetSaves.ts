// Writes to the saved datasets. Each is answered once the app's database has committed it: an import is one
// transaction (all its rows or none, and "Imported" only then); an edit sends only what changed (a row, a name), based
// on the revision this page last read, in order. A write that fails, or that another window's write overtook, keeps this
// window's copy and is said in the app's note until the user retries, keeps theirs or takes the other.
import type {SheetRow} from "../../../../client/scoring/index.ts";
import type {ColumnType, Dataset} from "../../../../client/experiments/types.ts";
import type {DatasetRowEdit, RevisionConflictError, SavedDatasetFields} from "../../../../protocol/gateway/contract.ts";
import {reportAppDataProblem} from "../../gateway/appData.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {newId} from "../../ui/browser.ts";
import {columnTypesOf, defaultColumnRoles, rowLimitProblem} from "./datasetModel.ts";
import {datasetInfo, getDataset, loadDatasets, loadRows, setRowsEntry, useDatasetsStore, type DatasetInfo} from "./datasetStore.ts";

export type SaveResult = {ok: true} | {ok: false, text: string};

/** The writes of each dataset, one after another, so each is based on the revision the one before made. */
const queues = new Map<string, Promise<unknown>>();
/** Datasets whose copy here differs from the database's (a write failed or was overtaken): nothing more is sent until the user chooses. */
const held = new Set<string>();

function enqueue<T>(id: string, write: () => Promise<T>): Promise<T> {
    const next = (queues.get(id) ?? Promise.resolve()).then(write, write);
    queues.set(id, next.catch(() => undefined));
    return next;
}

function fieldsOf(dataset: Dataset | DatasetInfo): SavedDatasetFields {
    return {name: dataset.name, columns: dataset.columns, columnTypes: dataset.columnTypes, labelColumns: dataset.labelColumns, inputColumns: dataset.inputColumns};
}

function setInfo(id: string, change: (info: DatasetInfo | null) => DatasetInfo | null, first = false) {
    useDatasetsStore.setState((state) => {
        const current = state.datasets.find((item) => item.id === id) ?? null;
        const next = change(current);
        const others = state.datasets.filter((item) => item.id !== id);
        if (next === null) return {datasets: others};
        return {datasets: first || current === null ? [next, ...others] : state.datasets.map((item) => item.id === id ? next : item)};
    });
}

/**
 * Saves `dataset` whole, rows and all, in one transaction: a new one (`revision` 0), or this window's copy over the
 * database's (`revision`: the one the database holds; by default the one this window last read or wrote). Answered once committed; refused with a message when it holds more rows
 * than a dataset may, or the gateway refuses it.
 */
export function saveDataset(dataset: Dataset, revision?: number): Promise<SaveResult> {
    const problem = rowLimitProblem(dataset.rows.length);
    if (problem !== null) return Promise.resolve({ok: false, text: problem});
    return enqueue(dataset.id, async () => {
        try {
            // Read when its turn comes: the write before it may have moved the revision on.
            const based = revision ?? datasetInfo(dataset.id)?.revision ?? 0;
            const {dataset: saved} = await gatewayApi.putDataset(dataset.id, {revision: based, fields: fieldsOf(dataset), rows: dataset.rows, createdAt: dataset.createdAt});
            held.delete(dataset.id);
            reportAppDataProblem(`dataset:${dataset.id}`, null);
            setRowsEntry(dataset.id, {rows: dataset.rows, complete: true, error: null});
            setInfo(dataset.id, () => saved as DatasetInfo, true);
            return {ok: true} as const;
        } catch (error) {
            return {ok: false, text: `"${dataset.name}" could not be saved: ${(error as Error).message}`} as const;
        }
    });
}

export type NewDataset = {name: string, columns: string[], rows: SheetRow[], columnTypes?: ColumnType[], labelColumns?: string[], inputColumns?: string[]};

/** A new dataset (not saved yet): types read from the cells and the default label / model-visible columns unless given. */
export function newDataset(input: NewDataset): Dataset {
    const roles = defaultColumnRoles(input.columns);
    const now = Date.now();
    return {
        id: newId(),
        name: input.name,
        columns: input.columns,
        columnTypes: input.columnTypes ?? columnTypesOf(input.columns, input.rows),
        rows: input.rows,
        labelColumns: input.labelColumns ?? roles.labelColumns,
        inputColumns: input.inputColumns ?? roles.inputColumns,
        createdAt: now,
        updatedAt: now
    };
}

/** Creates and saves a dataset, answered once it is committed: the new dataset, or why it was refused. */
export async function createDataset(input: NewDataset): Promise<{ok: true, dataset: Dataset} | {ok: false, text: string}> {
    const dataset = newDataset(input);
    const saved = await saveDataset(dataset, 0);
    return saved.ok ? {ok: true, dataset} : saved;
}

/** What a change to a dataset is: fields to set and row edits, from the dataset as it is now. */
export type DatasetChangeOf = (dataset: Dataset) => {fields?: Partial<SavedDatasetFields> & {columnTypes?: ColumnType[]}, edits?: DatasetRowEdit[]};

/**
 * Changes a saved dataset: applied here at once, then sent (only the change) and answered once committed. When it
 * cannot be saved, this window keeps it, and the app's note says so with the ways out.
 */
export async function changeDataset(id: string, changeOf: DatasetChangeOf): Promise<SaveResult> {
    await loadRows(id);
    const dataset = getDataset(id);
    if (dataset === null) return {ok: false, text: "That dataset no longer exists, or its rows could not be read."};
    const change = changeOf(dataset);
    const fields = {...fieldsOf(dataset), ...change.fields};
    const rows = change.edits === undefined ? dataset.rows : applyRowEdits(dataset.rows, change.edits, fields.columns.length);
    const problem = rowLimitProblem(rows.length);
    if (problem !== null) return {ok: false, text: problem};
    setRowsEntry(id, {rows, complete: true, error: null});
    setInfo(id, (info) => info === null ? null : {...info, ...fields as Partial<DatasetInfo>, rowCount: rows.length, updatedAt: Math.max(Date.now(), info.updatedAt + 1)});
    return enqueue(id, async () => {
        if (held.has(id)) return {ok: false, text: `"${fields.name}" has changes not saved yet: see the note above.`} as const;
        try {
            const {dataset: saved} = await gatewayApi.changeDataset(id, {revision: datasetInfo(id)?.revision ?? 0, ...change});
            setInfo(id, (info) => info === null ? null : {...info, revision: saved.revision, updatedAt: saved.updatedAt});
            return {ok: true} as const;
        } catch (error) {
            notSaved(id, error);
            return {ok: false, text: `"${fields.name}" could not be saved: ${(error as Error).message}`} as const;
        }
    });
}

/** Appends rows given as `{column: cell}`: a column the dataset lacks is added (empty in the rows before). */
export function addRecordRows(id: string, records: ReadonlyArray<Record<string, SheetRow[number]>>): Promise<SaveResult> {
    return changeDataset(id, (dataset) => {
        const added = [...new Set(records.flatMap((record) => Object.keys(record)))].filter((column) => !dataset.columns.includes(column));
        const columns = [...dataset.columns, ...added];
        const rows = records.map((record) => columns.map((column) => record[column] ?? null));
        if (added.length === 0) return {edits: [{op: "append", rows}]};
        return {
            fields: {
                columns,
                columnTypes: [...dataset.columnTypes, ...columnTypesOf(added, rows.map((row) => row.slice(dataset.columns.length)))],
                // A new column is one the model sees, unless it is named like a label.
                inputColumns: [...dataset.inputColumns, ...added.filter((column) => defaultColumnRoles([column]).inputColumns.length > 0)],
                labelColumns: [...dataset.labelColumns, ...added.filter((column) => defaultColumnRoles([column]).labelColumns.length > 0)]
            },
            edits: [{op: "append", rows}]
        };
    });
}

/** Deletes a dataset and its rows once committed; answers it whole, so an Undo can save it again. */
export async function deleteDataset(id: string): Promise<{ok: true, dataset: Dataset} | {ok: false, text: string}> {
    await loadRows(id);
    const dataset = getDataset(id);
    if (dataset === null) return {ok: false, text: "That dataset no longer exists, or its rows could not be read."};
    return enqueue(id, async () => {
        try {
            await gatewayApi.deleteDataset(id, datasetInfo(id)?.revision ?? 0);
            held.delete(id);
            reportAppDataProblem(`dataset:${id}`, null);
            setInfo(id, () => null);
            setRowsEntry(id, null);
            return {ok: true, dataset} as const;
        } catch (error) {
            return {ok: false, text: `"${dataset.name}" could not be deleted: ${(error as Error).message}`} as const;
        }
    });
}

/** The rows after `edits` (as the database applies them: in order, by position, each row one cell per column). */
export function applyRowEdits(rows: readonly SheetRow[], edits: readonly DatasetRowEdit[], width: number): SheetRow[] {
    const next = [...rows];
    const fit = (cells: readonly SheetRow[number][]) => Array.from({length: width}, (_, column) => cells[column] ?? null);
    for (const edit of edits) {
        if (edit.op === "set") next[edit.index] = fit(edit.cells);
        else if (edit.op === "insert") next.splice(edit.index, 0, fit(edit.cells));
        else if (edit.op === "delete") next.splice(edit.index, 1);
        else next.push(...edit.rows.map(fit));
    }
    return next;
}

/**
 * A change this window made could not be saved. Its copy is kept and nothing more of it is sent; the note offers to
 * save this window's copy whole (over another window's change too), or to read the database's.
 */
function notSaved(id: string, error: unknown) {
    held.add(id);
    const name = datasetInfo(id)?.name ?? "a dataset";
    const conflict = (error as {code?: string}).code === "revision_conflict" ? revisionOf(error) : null;
    const keepMine = async () => {
        const dataset = getDataset(id);
        if (dataset === null) return;
        held.delete(id);
        const revision = conflict ?? await gatewayApi.datasets().then(({datasets}) => datasets.find((item) => item.id === id)?.revision ?? 0, () => datasetInfo(id)?.revision ?? 0);
        const saved = await saveDataset(dataset, revision);
        if (!saved.ok) notSaved(id, new Error(saved.text));
    };
    const takeTheirs = async () => {
        held.delete(id);
        reportAppDataProblem(`dataset:${id}`, null);
        setRowsEntry(id, null);
        await loadDatasets();
    };
    reportAppDataProblem(`dataset:${id}`, conflict !== null
        ? `Another window changed the dataset "${name}": take its version, or keep yours (this window's copy replaces it).`
        : `Your change to the dataset "${name}" could not be saved (${(error as Error).message}). It is kept in this window: save it again, or take the saved version.`, [
        {label: conflict !== null ? "Keep mine" : "Save again", run: () => void keepMine()},
        {label: conflict !== null ? "Take its version" : "Take the saved version", run: () => void takeTheirs()}
    ]);
}

/** The revision a 409 `revision_conflict` says the database holds. */
function revisionOf(error: unknown): number | null {
    const revision = ((error as {body?: {error?: Partial<RevisionConflictError>} | null}).body)?.error?.revision;
    return typeof revision === "number" ? revision : null;
}
