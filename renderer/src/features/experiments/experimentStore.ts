// The experiment open on the screen (running, or read back from the app's data folder), its progress and summary.
// Cells arrive one by one: only counters change per cell; the summary is recomputed off the page's thread, at most
// every `summaryIntervalMs` (summaryClient.ts), so a result never costs main-thread work proportional to the rows.
import {create} from "zustand";
import type {CellResult, Dataset, ExperimentSpec, ExperimentSummary} from "../../../../client/experiments/types.ts";
import type {JobProgress} from "../../../../client/scoring/index.ts";
import type {BaselineAnswer} from "./summaryWorker.ts";

/** Per-variant counts kept as cells arrive: what the progress shows between two summaries. */
/** A variant's cells with a result, those with an error, and those answered from the response cache (nothing sent). */
export type VariantCounts = {done: number, errors: number, cached: number};

export type OpenExperiment = {
    id: string,
    spec: ExperimentSpec,
    dataset: Dataset,
    /** Dataset rows the experiment runs on (its sample), in order. */
    rowIndexes: number[],
    /** Cells by their store key (storedCellKey: row, variant and repeat); filled as they arrive. */
    cells: Map<number, CellResult>,
    counts: VariantCounts[],
    /** Stored as running or paused when read back: the page closed mid-run; Resume goes on where it stopped. */
    interrupted: boolean
};

/** A kept experiment as History lists it. */
export type SavedExperimentInfo = {
    id: string,
    name: string,
    status: "running" | "paused" | "completed" | "cancelled" | "failed",
    variants: string[],
    datasetName: string,
    done: number,
    failed: number,
    total: number | null,
    createdAt: number
};

export type ExperimentsTab = "setup" | "results" | "history";

/** A pinned baseline: the kept run's id, and its name and start once read (null while loading or when it is not kept). */
export type PinnedBaseline = {id: string, name: string | null, createdAt: number | null, problem: string | null};

type ExperimentState = {
    tab: ExperimentsTab,
    open: OpenExperiment | null,
    progress: JobProgress | null,
    summary: ExperimentSummary | null,
    /** The kept earlier run pinned as the open experiment's baseline, and the summary's test against it. */
    baseline: PinnedBaseline | null,
    baselineComparison: BaselineAnswer,
    /** Cells the summary shown was computed on; when lower than the cells held, a newer one is on its way. */
    summarizedCells: number,
    /** Bumped when counters change (a few times a second at most). */
    countsVersion: number,
    /** Set up or read back under way, or running: nothing else may start. */
    busy: boolean,
    error: string | null,
    saveNote: string | null,
    /** What opening a file in History did (shown above the tabs' content, whichever tab it opened on). */
    importMessage: {ok: boolean, text: string} | null,
    saved: SavedExperimentInfo[],
    /** Row (dataset index) whose detail is open. */
    detailRow: number | null,
    set: (change: Partial<Omit<ExperimentState, "set">>) => void
};

export const useExperimentStore = create<ExperimentState>()((set) => ({
    tab: "setup",
    open: null,
    progress: null,
    summary: null,
    summarizedCells: 0,
    baseline: null,
    baselineComparison: null,
    countsVersion: 0,
    busy: false,
    error: null,
    saveNote: null,
    importMessage: null,
    saved: [],
    detailRow: null,
    set: (change) => set(change)
}));

/** The key a cell is stored under: one per (row, variant, repeat), as the runner stores it. */
export {cellKey, storedCellKey} from "../../../../client/experiments/ExperimentRunner.ts";

/** Counts of `cells` per variant (an experiment read back). */
export function countCells(cells: Iterable<CellResult>, variants: number): VariantCounts[] {
    const counts = Array.from({length: variants}, () => ({done: 0, errors: 0, cached: 0}));
    for (const cell of cells) {
        const count = counts[cell.variant];
        if (count !== undefined) addCell(count, cell);
    }
    return counts;
}

/** Counts one more cell of a variant. */
export function addCell(count: VariantCounts, cell: CellResult): void {
    count.done++;
    if (!cell.ok) count.errors++;
    if (cell.cached) count.cached++;
}
