// The saved datasets, as the page holds them: the list (names, columns, roles, row counts), read from the app's database
// as the app starts, and each dataset's rows, read a page at a time when it is first opened or used. So twenty big
// datasets neither slow the start nor fill the page's memory until one is opened. Writes are in datasetSaves.ts.
import {useEffect} from "react";
import {create} from "zustand";
import type {SheetRow} from "../../../../client/scoring/index.ts";
import type {ColumnType, Dataset} from "../../../../client/experiments/types.ts";
import type {SavedDatasetInfo} from "../../../../protocol/gateway/contract.ts";
import {reportAppDataProblem} from "../../gateway/appData.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";

/** A dataset as the list holds it: everything but its rows, with the revision the next write is based on. */
export type DatasetInfo = Omit<SavedDatasetInfo, "columnTypes"> & {columnTypes: ColumnType[]};

/** The list of datasets (newest first); `loaded` once it was read from the app's database. */
export const useDatasetsStore = create<{datasets: DatasetInfo[], loaded: boolean}>()(() => ({datasets: [], loaded: false}));

/** A dataset's rows as far as they are read: `complete` once all `total` are here. */
export type RowsEntry = {rows: SheetRow[], complete: boolean, error: string | null};

/** The rows read so far, by dataset. */
export const useDatasetRowsStore = create<{entries: Record<string, RowsEntry>}>()(() => ({entries: {}}));

/** Rows of the first page, shown while the rest is read; later pages are bigger. */
const firstPage = 500;
const laterPage = 10_000;

/** Reads the list of datasets; never throws (a failure is said in the app's note, and the list stays empty). */
export async function loadDatasets(): Promise<void> {
    try {
        const {datasets, problems} = await gatewayApi.datasets();
        useDatasetsStore.setState({datasets: datasets as DatasetInfo[], loaded: true});
        reportAppDataProblem("datasets", problems.length === 0 ? null : problems.join(" "));
    } catch (error) {
        reportAppDataProblem("datasets", `Your datasets could not be read (${(error as Error).message}). Restart the app to try again.`);
    }
}

export function datasetInfo(id: string): DatasetInfo | null {
    return useDatasetsStore.getState().datasets.find((item) => item.id === id) ?? null;
}

export function setRowsEntry(id: string, entry: RowsEntry | null) {
    const {[id]: _old, ...others} = useDatasetRowsStore.getState().entries;
    useDatasetRowsStore.setState({entries: entry === null ? others : {...others, [id]: entry}});
}

/** The read of each dataset's rows under way: a second caller waits for the same one. */
const reading = new Map<string, Promise<SheetRow[] | null>>();

/**
 * All rows of a saved dataset, read once (a page at a time, each page shown as it comes) and then kept; null when there
 * is no such dataset or its rows could not be read (said in the entry's `error`).
 */
export function loadRows(id: string): Promise<SheetRow[] | null> {
    const entry = useDatasetRowsStore.getState().entries[id];
    if (entry?.complete) return Promise.resolve(entry.rows);
    const pending = reading.get(id);
    if (pending !== undefined) return pending;
    const read = readAllRows(id).finally(() => reading.delete(id));
    reading.set(id, read);
    return read;
}

async function readAllRows(id: string): Promise<SheetRow[] | null> {
    if (datasetInfo(id) === null) return null;
    const rows: SheetRow[] = [];
    try {
        for (let revision: number | null = null; ;) {
            const page = await gatewayApi.datasetRows(id, rows.length, rows.length === 0 ? firstPage : laterPage);
            // Another window changed it while its pages were read: read it again from the start, at its new revision.
            if (revision !== null && page.revision !== revision) {
                rows.length = 0;
                revision = null;
                continue;
            }
            revision = page.revision;
            rows.push(...page.rows);
            const complete = page.rows.length === 0 || rows.length >= page.total;
            setRowsEntry(id, {rows: [...rows], complete, error: null});
            if (complete) return rows;
        }
    } catch (error) {
        setRowsEntry(id, {rows, complete: false, error: `Its rows could not be read (${(error as Error).message}).`});
        return null;
    }
}

/** The whole dataset once its rows are read (null before, and when there is none of that id). */
export function getDataset(id: string): Dataset | null {
    const info = datasetInfo(id);
    const entry = useDatasetRowsStore.getState().entries[id];
    return info === null || entry?.complete !== true ? null : datasetOf(info, entry.rows);
}

/** The whole dataset, its rows read first; null when there is none of that id or its rows could not be read. */
export async function loadDataset(id: string): Promise<Dataset | null> {
    await loadRows(id);
    return getDataset(id);
}

/** The same Dataset object for the same list entry and rows, so components can depend on it. */
const built = new WeakMap<DatasetInfo, {rows: SheetRow[], dataset: Dataset}>();

function datasetOf(info: DatasetInfo, rows: SheetRow[]): Dataset {
    const cached = built.get(info);
    if (cached?.rows === rows) return cached.dataset;
    const {rowCount: _count, revision: _revision, ...rest} = info;
    const dataset: Dataset = {...rest, rows};
    built.set(info, {rows, dataset});
    return dataset;
}

/**
 * A dataset as far as its rows are read, for the screen that shows it (its first rows appear at once), with how many
 * are read; rows are read when it is first shown.
 */
export function useDatasetView(id: string | null): {dataset: Dataset, entry: RowsEntry, total: number} | null {
    const info = useDatasetsStore((state) => id === null ? undefined : state.datasets.find((item) => item.id === id));
    const entry = useDatasetRowsStore((state) => id === null ? undefined : state.entries[id]);
    // Read when first shown, and again when its rows were dropped (the saved version taken over this window's).
    useEffect(() => {
        if (id !== null && info !== undefined && entry === undefined) void loadRows(id);
    }, [id, info !== undefined, entry === undefined]);
    if (info === undefined) return null;
    const current = entry ?? {rows: emptyRows, complete: false, error: null};
    return {dataset: datasetOf(info, current.rows), entry: current, total: info.rowCount};
}

const emptyRows: SheetRow[] = [];

/** The dataset of `id` with all its rows, re-read when it changes; null while none is chosen, its rows are read, or it was deleted. */
export function useDataset(id: string | null): Dataset | null {
    const view = useDatasetView(id);
    return view?.entry.complete ? view.dataset : null;
}
