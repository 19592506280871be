// Keeps the open experiment's summary current without blocking the page: cells go to the summary worker as they
// arrive (a message each few hundred milliseconds, not a copy of them all), and a new summary is asked for at most
// every `summaryIntervalMs`, only when cells arrived and the last one is back.
import type {CellResult, ExperimentSummary} from "../../../../client/experiments/types.ts";
import type {PairChoice} from "../../../../client/experiments/summary.ts";
import type {RunData} from "../../../../client/experiments/rowOutcomes.ts";
import {useExperimentStore, type OpenExperiment} from "./experimentStore.ts";
import {recordDiscordance} from "./discordance.ts";
import type {SummaryAnswer, SummaryRequest} from "./summaryWorker.ts";
import SummaryWorker from "./summaryWorker.ts?worker";

/** The longest a running experiment's matrix lags behind its cells. */
export const summaryIntervalMs = 1500;

let worker: Worker | null = null;
let pending: CellResult[] = [];
let sent = 0;
let asked = 0;
let answered = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let lastAsked = 0;

function post(request: SummaryRequest) {
    worker?.postMessage(request);
}

/** Starts summarising `open` (its cells so far), replacing the experiment summarised before. */
export function openSummary(open: OpenExperiment) {
    worker?.terminate();
    worker = new SummaryWorker();
    pending = [];
    sent = open.cells.size;
    worker.onmessage = (event: MessageEvent<SummaryAnswer>) => {
        const answer = event.data;
        if (answer.id !== asked) return;
        answered = answer.id;
        if (answer.type === "summary") {
            useExperimentStore.getState().set({summary: answer.summary, summarizedCells: answer.cells, baselineComparison: answer.baseline});
            recordDiscordance(open.spec, answer.summary);
        }
        else useExperimentStore.getState().set({error: `The summary could not be computed: ${answer.message}`});
        if (answer.type === "error" || sent > answer.cells || pending.length > 0) schedule();
    };
    post({type: "open", spec: open.spec, dataset: open.dataset, rowIndexes: open.rowIndexes, cells: [...open.cells.values()]});
    summarizeNow();
}

/** The open experiment's pinned baseline run (null: none): the next summary, asked now, is tested against it. */
export function setSummaryBaseline(run: RunData | null) {
    post({type: "baseline", run});
    summarizeNow();
}

/** A new cell of the open experiment: summarised with the next summary. */
export function addSummaryCell(cell: CellResult) {
    pending.push(cell);
    schedule();
}

/** Asks for the summary now (the run ended: the last cells show at once). */
export function summarizeNow() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending.length > 0) post({type: "cells", cells: pending});
    sent += pending.length;
    pending = [];
    lastAsked = performance.now();
    post({type: "summarize", id: ++asked});
}

function schedule() {
    if (timer !== null || worker === null) return;
    // One summary at a time: the next is asked once the last is back and the interval has passed.
    const wait = asked !== answered ? summaryIntervalMs / 3 : Math.max(0, lastAsked + summaryIntervalMs - performance.now());
    timer = setTimeout(() => {
        timer = null;
        if (asked !== answered) schedule();
        else summarizeNow();
    }, wait);
}

export function closeSummary() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    worker?.terminate();
    worker = null;
    pending = [];
}

/** One summary of an experiment in a worker of its own (comparing two kept experiments), without blocking the page. */
export function summarizeOnce(experiment: Pick<OpenExperiment, "spec" | "dataset" | "rowIndexes" | "cells">, pairs?: PairChoice): Promise<ExperimentSummary> {
    const once = new SummaryWorker();
    return new Promise<ExperimentSummary>((resolve, reject) => {
        once.onmessage = (event: MessageEvent<SummaryAnswer>) => {
            if (event.data.type === "summary") resolve(event.data.summary);
            else reject(new Error(event.data.message));
        };
        once.onerror = (event) => reject(new Error(event.message || "the summary failed"));
        once.postMessage({type: "open", spec: experiment.spec, dataset: experiment.dataset, rowIndexes: experiment.rowIndexes, cells: [...experiment.cells.values()], ...(pairs === undefined ? {} : {pairs})} satisfies SummaryRequest);
        once.postMessage({type: "summarize", id: 1} satisfies SummaryRequest);
    }).finally(() => once.terminate());
}
