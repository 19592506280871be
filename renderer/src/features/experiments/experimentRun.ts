// Running experiments on the page: start, pause, resume, cancel, open a kept one and go on where it stopped. One runs at a
// time. The cells go through client/experiments' ExperimentRunner (the one runner scoring uses too) into the app's data
// folder, so a reload mid-run loses no finished cell and the next run never sends one twice.
import {defaultExperimentConcurrency, ExperimentRunner, type ModelGroup} from "../../../../client/experiments/ExperimentRunner.ts";
import {experimentCells} from "../../../../client/experiments/repeats.ts";
import {sampleIndexes} from "../../../../client/experiments/dataset.ts";
import type {CellResult, ConnectionRef, ExperimentSpec} from "../../../../client/experiments/types.ts";
import type {SvcClient} from "../../../../client/sdk/index.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {gatewayResponseCache} from "../../gateway/responseCache.ts";
import {gatewayClient, queryClient, gatewayStateKey} from "../../gateway/gatewayState.ts";
import {addCell, countCells, storedCellKey, useExperimentStore, type OpenExperiment} from "./experimentStore.ts";
import {notSavedNote, savedExperiments, type LoadedExperiment} from "./savedExperiments.ts";
import {addSummaryCell, openSummary, summarizeNow} from "./summaryClient.ts";
import {paceRecorder} from "./pace.ts";
import {showBaseline} from "./baselinePin.ts";
import {keepOpenExperiment, useOpenExperimentId} from "./openExperimentId.ts";
import {useCacheSetting} from "./cacheSetting.ts";
import {parseExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import {isResultsJson, parseExperimentResults, type ExperimentResults} from "../../../../client/experiments/resultsFile.ts";

let runner: ExperimentRunner | null = null;
let loaded: LoadedExperiment | null = null;
let countsTimer: ReturnType<typeof setTimeout> | null = null;

/** A client for a variant's connection through the gateway: the local engine, or a saved remote profile by its id. */
export function clientFor(connection: ConnectionRef): SvcClient {
    if (!("profile" in connection)) throw new Error(`a connection by URL (${connection.baseUrl}) runs from the command line (svc-studio eval); in the app choose the local engine or a saved remote profile`);
    return gatewayClient(connection.profile === "local" ? null : connection.profile, {maxAttempts: 4});
}

/** Whether an experiment is running, paused, or being set up. */
export function experimentBusy(): boolean {
    return runner !== null || useExperimentStore.getState().busy;
}

const set = (change: Parameters<ReturnType<typeof useExperimentStore.getState>["set"]>[0]) => useExperimentStore.getState().set(change);

function savingFailed(id: string) {
    return (error: unknown) => {
        if (useExperimentStore.getState().open?.id === id) set({saveNote: notSavedNote(error)});
    };
}

function show(experiment: LoadedExperiment, interrupted: boolean) {
    loaded = experiment;
    const cells = new Map<number, CellResult>();
    for (const stored of experiment.store.all()) cells.set(stored.rowIndex, stored.cell);
    const open: OpenExperiment = {id: experiment.record.jobId, spec: experiment.spec, dataset: experiment.dataset, rowIndexes: experiment.rowIndexes,
        cells, counts: countCells(cells.values(), experiment.spec.variants.length), interrupted};
    set({open, summary: null, summarizedCells: 0, progress: null, error: null, saveNote: null, detailRow: null, tab: "results"});
    keepOpenExperiment(open.id);
    openSummary(open);
    void showBaseline(open.id, experiment.baseline, true);
}

/** Saves `spec` as a new experiment and runs it. */
export async function startExperiment(spec: ExperimentSpec) {
    if (experimentBusy()) return;
    const dataset = "rows" in spec.dataset ? spec.dataset : null;
    if (dataset === null) return;
    set({busy: true, error: null});
    try {
        const rowIndexes = sampleIndexes(dataset, spec.sample);
        show(await savedExperiments.create(spec, dataset, rowIndexes, savingFailed(spec.id)), false);
    } catch (error) {
        set({busy: false, error: `The experiment could not be saved, so it did not start: ${(error as Error).message}`});
        return;
    }
    void refreshSavedExperiments();
    await run();
}

/** Opens a kept experiment: its matrix and cells; an interrupted one can go on with Resume. */
export async function openExperiment(id: string) {
    await openKept(id, false);
}

/** Opens a kept experiment; false when it could not be (said on the screen, unless `quiet`) or another is busy. */
async function openKept(id: string, quiet: boolean): Promise<boolean> {
    if (experimentBusy()) return false;
    set({busy: true, error: null});
    try {
        const experiment = await savedExperiments.load(id, savingFailed(id));
        show(experiment, experiment.record.status !== "completed");
        return true;
    } catch (error) {
        if (!quiet) set({error: `Could not open the experiment: ${(error as Error).message}`});
        return false;
    } finally {
        set({busy: false});
    }
}

/**
 * After a reload or a restart: opens again the experiment that was open, finished or not (one that stopped mid-run
 * shows Resume); one that is no longer kept is forgotten. Called before the screens mount, so the Experiments screen's
 * own reopening of an interrupted experiment finds this one open (or opening) and leaves it.
 */
export async function restoreOpenExperiment() {
    const {id} = useOpenExperimentId.getState();
    if (id === null || useExperimentStore.getState().open !== null || experimentBusy()) return;
    if (!await openKept(id, true) && useExperimentStore.getState().open === null && !experimentBusy()) keepOpenExperiment(null);
}

/**
 * Opens an experiment file or a results file (what `svc-studio eval --results` writes, or the app exports) as a kept
 * experiment: its dataset, sample and every cell saved in the app's data folder, then shown as if the app had run it.
 * An experiment file without results opens with Resume, which sends its cells. Returns what to tell the person.
 */
export async function importExperimentFile(name: string, text: string): Promise<{ok: boolean, text: string}> {
    if (experimentBusy()) return {ok: false, text: "An experiment is running: import once it has ended."};
    let results: ExperimentResults;
    try {
        const json: unknown = JSON.parse(text);
        if (isResultsJson(json)) results = parseExperimentResults(json);
        else {
            const spec = parseExperimentSpec(json);
            if (!("rows" in spec.dataset)) return {ok: false, text: `${name}: its dataset is a file (${spec.dataset.file}); the app opens experiment files whose dataset is inline, as the app exports them.`};
            results = {experiment: {...spec, dataset: spec.dataset}, rowIndexes: sampleIndexes(spec.dataset, spec.sample), cells: []};
        }
    } catch (error) {
        return {ok: false, text: `${name}: ${(error as Error).message}`};
    }
    const {experiment, rowIndexes, cells} = results;
    // A new id: the same file imported twice is two kept experiments, and never mixes with the one it came from.
    const spec = {...experiment, id: `${experiment.id}-${Date.now().toString(36)}`};
    set({busy: true, error: null});
    try {
        const created = await savedExperiments.create(spec, experiment.dataset, rowIndexes, savingFailed(spec.id));
        for (const cell of cells) await created.store.putResult(spec.id, {rowIndex: storedCellKey(cell, spec), ok: cell.ok, completedAt: cell.completedAt, cell});
        const complete = cells.length === experimentCells(spec, rowIndexes.length);
        if (complete) await created.store.updateJob(spec.id, {status: "completed"});
        show(await savedExperiments.load(spec.id, savingFailed(spec.id)), !complete);
    } catch (error) {
        return {ok: false, text: `${name} could not be kept: ${(error as Error).message}`};
    } finally {
        set({busy: false});
        void refreshSavedExperiments();
    }
    const total = experimentCells(spec, rowIndexes.length);
    return {ok: true, text: `Opened ${name}: ${cells.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} cells${cells.length < total ? "; Resume sends the rest" : ""}.`};
}

/** Sends the open experiment's cells that have no result yet (an interrupted or cancelled run goes on). */
export async function continueExperiment() {
    if (experimentBusy() || loaded === null) return;
    set({busy: true});
    await run();
}

export function pauseExperiment() {
    runner?.pause();
    if (runner) set({progress: runner.progress()});
}

export function resumeExperiment() {
    runner?.resume();
    if (runner) set({progress: runner.progress()});
}

export function cancelExperiment() {
    runner?.cancel();
}

/** The local engine loads a variant's model before its cells run (it holds one model at a time). */
async function loadModel(group: ModelGroup) {
    const model = group.model?.trim() ?? "";
    if (model === "" || model === modelIds.chat) return;
    const state = await gatewayApi.state();
    if (state.engine.status === "running" && (state.engine.model ?? "").includes(model)) return;
    await gatewayApi.startEngine({modelId: model});
    await queryClient.invalidateQueries({queryKey: gatewayStateKey});
}

async function run() {
    const experiment = loaded!;
    const open = useExperimentStore.getState().open!;
    set({busy: true, error: null, open: {...open, interrupted: false}});
    const pace = paceRecorder(experiment.spec.variants, experiment.spec.concurrency ?? defaultExperimentConcurrency);
    try {
        runner = new ExperimentRunner({
            spec: experiment.spec,
            dataset: experiment.dataset,
            rows: experiment.rowIndexes,
            jobId: experiment.record.jobId,
            store: experiment.store,
            clientFor,
            ...(useCacheSetting.getState().reuseAnswers ? {cache: gatewayResponseCache} : {}),
            beforeGroup: (group) => loadModel(group),
            progressIntervalMs: 500,
            onProgress: (progress) => set({progress}),
            onResult: (cell) => {
                // Constant work per cell: the map, one counter, the summary worker's queue.
                const current = useExperimentStore.getState().open;
                if (current?.id !== experiment.record.jobId) return;
                current.cells.set(storedCellKey(cell, current.spec), cell);
                addCell(current.counts[cell.variant], cell);
                // A cell from the cache took no time now: it says nothing of the connection's pace.
                if (!cell.cached) pace.add(cell);
                addSummaryCell(cell);
                countsTimer ??= setTimeout(() => {
                    countsTimer = null;
                    set({countsVersion: useExperimentStore.getState().countsVersion + 1});
                }, 500);
            }
        });
        set({progress: runner.progress()});
        set({progress: await runner.run()});
    } catch (error) {
        set({error: (error as Error).message});
    } finally {
        runner = null;
        pace.save();
        if (countsTimer !== null) clearTimeout(countsTimer);
        countsTimer = null;
        set({busy: false, countsVersion: useExperimentStore.getState().countsVersion + 1});
        summarizeNow();
        void refreshSavedExperiments();
    }
}

/** Re-reads the kept experiments for History. */
export async function refreshSavedExperiments() {
    try {
        set({saved: await savedExperiments.list()});
    } catch {
        set({saved: []});
    }
}

/** Deletes a kept experiment (not the one running). */
export async function deleteExperiment(id: string) {
    if (useExperimentStore.getState().open?.id === id && experimentBusy()) return;
    try {
        await savedExperiments.remove(id);
        if (useExperimentStore.getState().open?.id === id) set({open: null, summary: null, progress: null});
        if (useOpenExperimentId.getState().id === id) keepOpenExperiment(null);
    } catch (error) {
        set({error: `Could not delete the experiment: ${(error as Error).message}`});
    }
    await refreshSavedExperiments();
}
