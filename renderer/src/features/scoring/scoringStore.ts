import {create} from "zustand";
import type {ResultLayout, InputMapping, JobProgress, JobSpec, JobStatus, ResultStore, RowResult, SheetRow, SpreadsheetSource, QuestionInfo} from "../../../../client/scoring/index.ts";

/** A sheet read whole into memory: the preview, the grid, the labels of the evaluation and the job's rows. */
export type LoadedTable = {
    fileName: string,
    format: "csv" | "xlsx",
    sheets: string[],
    sheet: string | null,
    /** What the person chose: detect, or force a header row on or off. */
    header: "auto" | boolean,
    headerDetected: boolean,
    hasHeader: boolean,
    columns: string[],
    rows: SheetRow[]
};

export type ScoringJob = {
    id: string,
    spec: JobSpec,
    infos: QuestionInfo[],
    layout: ResultLayout,
    /** In memory, copied to the app's data folder while it can be (MirroredResultStore.ts). */
    store: ResultStore,
    /** Each row's result as it arrives (index = data row); mutated in place, `resultsVersion` says when. */
    results: Array<RowResult | undefined>,
    /** The table the job scores (the rows and columns it was started with). */
    table: LoadedTable,
    /** Restored after the page was closed or reloaded while it ran; cleared when it runs again. */
    interrupted?: boolean,
    /** The time its runs before the current one took (jobFigures.ts busyMs of their results); 0 for a new job. */
    earlierMs?: number
};

/** One saved job as the list shows it. */
export type SavedJobSummary = {
    jobId: string,
    fileName: string,
    sheet: string | null,
    /** The name of the question set it scored with; null when the set had none. */
    questionSetName: string | null,
    /** As stored: `running` or `paused` here means the page closed while it ran (see `interrupted`). */
    status: JobStatus,
    /** Why its last run failed (status `failed`); null otherwise. */
    error: string | null,
    interrupted: boolean,
    done: number,
    failed: number,
    totalRows: number | null,
    createdAt: number,
    updatedAt: number,
    /** False when its table is missing (it can only be deleted). */
    hasTable: boolean
};

type ScoringState = {
    source: SpreadsheetSource | null,
    /** While a file is being read: rows read so far. */
    loading: {fileName: string, rows: number} | null,
    loadError: string | null,
    table: LoadedTable | null,
    mapping: InputMapping,
    concurrency: number,
    job: ScoringJob | null,
    progress: JobProgress | null,
    /** Why the last job could not run at all (its progress says why a running job failed). */
    jobError: string | null,
    /** Bumped (at most a few times a second) when results arrive, so views re-read `job.results`. */
    resultsVersion: number,
    /** The jobs saved in the app's data folder (savedJobs.ts), the newest first. */
    savedJobs: SavedJobSummary[],
    /** Why the current job's results are not being saved (the data folder refused them); null while they are. */
    saveNote: string | null,
    set: (patch: Partial<Omit<ScoringState, "set">>) => void
};

export const useScoringStore = create<ScoringState>()((set) => ({
    source: null,
    loading: null,
    loadError: null,
    table: null,
    mapping: {kind: "template", template: ""},
    concurrency: 4,
    job: null,
    progress: null,
    jobError: null,
    resultsVersion: 0,
    savedJobs: [],
    saveNote: null,
    set: (patch) => set(patch)
}));
