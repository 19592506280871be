// Experiments kept in the app's data folder through the gateway (`/app-data/experiments`): each with its record (what
// the runner resumes against, and the experiment itself to open it again), its dataset, and one line per finished cell.
import {experimentFingerprint, storedCellKey, type ExperimentRunSpec, type StoredCell} from "../../../../client/experiments/ExperimentRunner.ts";
import type {KeptRun} from "../../../../client/experiments/jointRuns.ts";
import type {Dataset, ExperimentSpec} from "../../../../client/experiments/types.ts";
import type {JobRecord} from "../../../../client/scoring/index.ts";
import type {SavedJobInfo, SavedJobRecord} from "../../../../protocol/gateway/contract.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {reportSavedItemProblems} from "../../gateway/savedItemProblems.ts";
import {ExperimentCellStore} from "./cellStore.ts";
import {experimentCells} from "../../../../client/experiments/repeats.ts";
import type {SavedExperimentInfo} from "./experimentStore.ts";

/** The record's spec: the runner's (id, fingerprint) with the experiment (its dataset apart) and its sample's rows. */
export type SavedExperimentSpec = ExperimentRunSpec & {experiment: ExperimentSpec, rowIndexes: number[]};

export type ExperimentStoreOf = ExperimentCellStore<StoredCell, SavedExperimentSpec>;

export type LoadedExperiment = {record: JobRecord<SavedExperimentSpec>, spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], store: ExperimentStoreOf,
    /** The kept earlier run pinned as its baseline (its id), or null. */
    baseline: string | null};

/** The experiment as its record holds it: the dataset is saved once, as the table, not inside the record too. */
function withoutRows(spec: ExperimentSpec): ExperimentSpec {
    const dataset = spec.dataset;
    return "rows" in dataset ? {...spec, dataset: {...dataset, rows: []}} : spec;
}

function infoOf({record, done, failed}: SavedJobInfo): SavedExperimentInfo | null {
    const spec = record.spec as Partial<SavedExperimentSpec>;
    if (spec.kind !== "experiment" || spec.experiment === undefined) return null;
    const dataset = spec.experiment.dataset;
    return {
        id: record.jobId,
        name: spec.experiment.name,
        status: record.status,
        variants: spec.experiment.variants.map((variant) => variant.name),
        datasetName: "name" in dataset ? dataset.name : dataset.file,
        done,
        failed,
        total: record.totalRows,
        createdAt: record.createdAt
    };
}

export const savedExperiments = {
    /** Every kept experiment, the newest first. */
    async list(): Promise<SavedExperimentInfo[]> {
        const {jobs, problems} = await gatewayApi.experiments();
        reportSavedItemProblems("experiment", problems);
        return jobs.map(infoOf).filter((info): info is SavedExperimentInfo => info !== null);
    },

    /** Saves a new experiment with its dataset before its first cell is sent, so every cell has a home. */
    async create(spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], onFailure: (error: unknown) => void): Promise<LoadedExperiment> {
        const now = Date.now();
        const runSpec: SavedExperimentSpec = {kind: "experiment", experimentId: spec.id, name: spec.name, variants: spec.variants.length,
            fingerprint: experimentFingerprint(spec, dataset), experiment: withoutRows(spec), rowIndexes};
        const record: JobRecord<SavedExperimentSpec> = {jobId: spec.id, spec: runSpec, status: "running", totalRows: experimentCells(spec, rowIndexes.length),
            error: null, createdAt: now, updatedAt: now};
        await gatewayApi.createExperiment(record as unknown as SavedJobRecord, dataset);
        return {record, spec, dataset, rowIndexes, store: new ExperimentCellStore<StoredCell, SavedExperimentSpec>(record, [], onFailure), baseline: null};
    },

    /** A kept experiment with its dataset and cells, its store ready to go on saving. */
    async load(id: string, onFailure: (error: unknown) => void): Promise<LoadedExperiment> {
        const saved = await gatewayApi.experiment(id).catch((error: {status?: number}) => {
            throw error.status === 404 ? new Error("this experiment is no longer kept") : error;
        });
        reportSavedItemProblems("experiment", saved.problems, `saved-experiment-${id}`);
        const record = saved.record as unknown as JobRecord<SavedExperimentSpec>;
        if (record.spec?.kind !== "experiment" || saved.table === null) throw new Error("this experiment's record or dataset could not be read");
        const dataset = saved.table as Dataset;
        const spec = {...record.spec.experiment, dataset};
        const cells = (saved.results as unknown as StoredCell[]).filter((result) => result.cell !== undefined);
        return {record, spec, dataset, rowIndexes: record.spec.rowIndexes, store: new ExperimentCellStore<StoredCell, SavedExperimentSpec>(record, cells, onFailure),
            baseline: saved.record.baseline ?? null};
    },

    /** Pins `baseline` (a kept experiment's id) as the experiment's baseline, or unpins it (null); kept with its record. */
    async pinBaseline(id: string, baseline: string | null): Promise<void> {
        await gatewayApi.updateExperiment(id, {baseline});
    },

    async remove(id: string): Promise<void> {
        await gatewayApi.deleteExperiment(id);
    }
};

/** A loaded experiment as a run of its rows: one cell per (row, variant), as the summary and the baseline test read it. */
export function keptRun(loaded: LoadedExperiment): KeptRun {
    const cells = new Map([...loaded.store.all()].map((stored) => [storedCellKey(stored.cell, loaded.spec), stored.cell]));
    return {name: loaded.spec.name, spec: loaded.spec, dataset: loaded.dataset, rowIndexes: loaded.rowIndexes, cells: [...cells.values()]};
}

/** What the person reads when cells stop being saved. */
export function notSavedNote(error: unknown): string {
    const why = error instanceof Error ? error.message : String(error);
    return `Cells are not being saved in the app's data folder (${why}). They are kept in this window only: export them before you reload or close it.`;
}
