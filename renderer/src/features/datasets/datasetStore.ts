// The saved datasets, in the app's data folder (gateway/appData.ts). The list (names, columns, label and model-visible
// columns, row counts) is one small document every screen reads at once; each dataset's rows are documents of their own,
// split in parts of bounded size, read only when that dataset is opened. So a big dataset neither slows the list nor
// hits the size limit of one document.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {SheetRow} from "../../../../client/scoring/index.ts";
import type {ColumnType, Dataset} from "../../../../client/experiments/types.ts";
import {appDataStorage} from "../../gateway/appData.ts";
import {newId} from "../../ui/browser.ts";
import {columnTypesOf, defaultColumnRoles, rowLimitProblem} from "./datasetModel.ts";

/** A dataset as the list holds it: everything but its rows. */
export type DatasetInfo = Omit<Dataset, "rows"> & {rowCount: number, /** Documents its rows are kept in. */ rowParts: number};

type DatasetsState = {datasets: DatasetInfo[]};

const listKey = "svc-studio-datasets";
const rowsKey = (id: string, part: number) => `svc-studio-dataset-${id}-rows-${part}`;
/**
 * Characters of row JSON per document: a UTF-16 unit takes at most 3 bytes in UTF-8, so a part stays under 4 MB whatever
 * the text, well within the gateway's request body limit for one document (appDataLimits.maxDocumentRequestBytes).
 */
const partChars = 1_200_000;

/** The list of datasets (newest first); a component re-renders when it changes, rows included (`updatedAt`). */
export const useDatasetsStore = create<DatasetsState>()(persist(() => ({datasets: [] as DatasetInfo[]}), {
    name: listKey,
    version: 1,
    storage: createJSONStorage(() => appDataStorage),
    partialize: (state) => ({datasets: state.datasets}),
    // An entry that does not read (edited by hand) is left out rather than breaking the screen.
    merge: (saved, current) => {
        const list = (saved as {datasets?: unknown} | null)?.datasets;
        const datasets = (Array.isArray(list) ? list : []).filter((item): item is DatasetInfo =>
            typeof item?.id === "string" && typeof item.name === "string" && Array.isArray(item.columns) && typeof item.rowParts === "number");
        return {...current, datasets};
    }
}));

/** Rows already read, by dataset, with the `updatedAt` they were read at. */
const rowCache = new Map<string, {updatedAt: number, rows: SheetRow[]}>();

/** The rows of a saved dataset (empty when its documents are missing). */
export function datasetRows(info: DatasetInfo): SheetRow[] {
    const cached = rowCache.get(info.id);
    if (cached?.updatedAt === info.updatedAt) return cached.rows;
    const rows: SheetRow[] = [];
    for (let part = 0; part < info.rowParts; part++) {
        const text = appDataStorage.getItem(rowsKey(info.id, part)) as string | null;
        if (text === null) continue;
        try {
            for (const row of JSON.parse(text) as SheetRow[]) rows.push(row);
        } catch {
            // A part that does not read (edited by hand) is skipped: the rest of the dataset still opens.
        }
    }
    rowCache.set(info.id, {updatedAt: info.updatedAt, rows});
    return rows;
}

export function datasetInfo(id: string): DatasetInfo | null {
    return useDatasetsStore.getState().datasets.find((item) => item.id === id) ?? null;
}

/** The same Dataset object for the same list entry, so components can depend on it. */
const datasets = new WeakMap<DatasetInfo, Dataset>();

function datasetOf(info: DatasetInfo): Dataset {
    let dataset = datasets.get(info);
    if (dataset === undefined) {
        const {rowCount: _count, rowParts: _parts, ...rest} = info;
        dataset = {...rest, rows: datasetRows(info)};
        datasets.set(info, dataset);
    }
    return dataset;
}

/** The whole dataset (rows read from their documents), null when there is none of that id. */
export function getDataset(id: string): Dataset | null {
    const info = datasetInfo(id);
    return info === null ? null : datasetOf(info);
}

/** The dataset of `id`, re-read when it changes; null while none is chosen or it was deleted. */
export function useDataset(id: string | null): Dataset | null {
    const info = useDatasetsStore((state) => id === null ? undefined : state.datasets.find((item) => item.id === id));
    return info === undefined ? null : datasetOf(info);
}

/** Writes the rows in parts; parts a shorter dataset no longer needs are removed. Returns how many parts it took. */
function writeRows(id: string, rows: readonly SheetRow[], previousParts: number): number {
    const parts: string[] = [];
    let current: string[] = [];
    let length = 0;
    for (const row of rows) {
        const text = JSON.stringify(row);
        if (current.length > 0 && length + text.length > partChars) {
            parts.push(`[${current.join(",")}]`);
            current = [];
            length = 0;
        }
        current.push(text);
        length += text.length + 1;
    }
    if (current.length > 0 || parts.length === 0) parts.push(`[${current.join(",")}]`);
    parts.forEach((text, part) => appDataStorage.setItem(rowsKey(id, part), text));
    for (let part = parts.length; part < previousParts; part++) appDataStorage.removeItem(rowsKey(id, part));
    return parts.length;
}

/**
 * Saves `dataset` whole (a new one, or a new state of one), newest first in the list; refused (nothing changes) with a
 * message when it holds more rows than a dataset may.
 */
export function saveDataset(dataset: Dataset): {ok: true} | {ok: false, text: string} {
    const problem = rowLimitProblem(dataset.rows.length);
    if (problem !== null) return {ok: false, text: problem};
    const previous = datasetInfo(dataset.id);
    const rowParts = writeRows(dataset.id, dataset.rows, previous?.rowParts ?? 0);
    const {rows, ...rest} = dataset;
    const info: DatasetInfo = {...rest, rowCount: rows.length, rowParts};
    rowCache.set(dataset.id, {updatedAt: dataset.updatedAt, rows});
    useDatasetsStore.setState((state) => ({datasets: [info, ...state.datasets.filter((item) => item.id !== dataset.id)]}));
    return {ok: true};
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

/** Creates and saves a dataset; the new dataset, or why it was refused. */
export function createDataset(input: NewDataset): {ok: true, dataset: Dataset} | {ok: false, text: string} {
    const dataset = newDataset(input);
    const saved = saveDataset(dataset);
    return saved.ok ? {ok: true, dataset} : saved;
}

/** Changes a saved dataset (`change` returns its next state; rows may be the same array); `updatedAt` is set. */
export function updateDataset(id: string, change: (dataset: Dataset) => Dataset): {ok: true} | {ok: false, text: string} {
    const dataset = getDataset(id);
    if (dataset === null) return {ok: false, text: "That dataset no longer exists."};
    const next = change(dataset);
    return saveDataset({...next, id, updatedAt: Math.max(Date.now(), dataset.updatedAt + 1)});
}

/** Appends rows given as `{column: cell}`: a column the dataset lacks is added (empty in the rows before). */
export function addRecordRows(id: string, records: ReadonlyArray<Record<string, SheetRow[number]>>): {ok: true} | {ok: false, text: string} {
    return updateDataset(id, (dataset) => {
        const added = [...new Set(records.flatMap((record) => Object.keys(record)))].filter((column) => !dataset.columns.includes(column));
        const columns = [...dataset.columns, ...added];
        const widened = added.length === 0 ? dataset.rows : dataset.rows.map((row) => [...row, ...added.map(() => null)]);
        const rows = [...widened, ...records.map((record) => columns.map((column) => record[column] ?? null))];
        return {
            ...dataset,
            columns,
            rows,
            columnTypes: added.length === 0 ? dataset.columnTypes : [...dataset.columnTypes, ...columnTypesOf(added, rows.map((row) => row.slice(dataset.columns.length)))],
            // A new column is one the model sees, unless it is named like a label.
            inputColumns: [...dataset.inputColumns, ...added.filter((column) => defaultColumnRoles([column]).inputColumns.length > 0)],
            labelColumns: [...dataset.labelColumns, ...added.filter((column) => defaultColumnRoles([column]).labelColumns.length > 0)]
        };
    });
}

/** Deletes a dataset and its rows; returns it whole, so an Undo can save it again. */
export function deleteDataset(id: string): Dataset | null {
    const dataset = getDataset(id);
    const info = datasetInfo(id);
    if (dataset === null || info === null) return null;
    for (let part = 0; part < info.rowParts; part++) appDataStorage.removeItem(rowsKey(id, part));
    rowCache.delete(id);
    useDatasetsStore.setState((state) => ({datasets: state.datasets.filter((item) => item.id !== id)}));
    return dataset;
}
