// Summarises an experiment off the page's thread: the paired bootstrap over every metric of 10,000 rows takes long
// enough to freeze the screen, so the page sends the experiment once, then only the cells that arrived since.
import {summarizeExperiment, type PairChoice} from "../../../../client/experiments/summary.ts";
import type {CellResult, Dataset, ExperimentSpec, ExperimentSummary} from "../../../../client/experiments/types.ts";

export type SummaryRequest =
    | {type: "open", spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], cells: CellResult[], pairs?: PairChoice}
    | {type: "cells", cells: CellResult[]}
    | {type: "summarize", id: number};

export type SummaryAnswer =
    | {type: "summary", id: number, summary: ExperimentSummary, cells: number}
    | {type: "error", id: number, message: string};

// The project's TypeScript lib is the DOM one (the WebWorker lib conflicts with it): the worker scope, as used here.
const scope = self as unknown as {
    postMessage: (message: SummaryAnswer) => void,
    onmessage: ((event: MessageEvent<SummaryRequest>) => void) | null
};

let experiment: {spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], pairs?: PairChoice} | null = null;
let cells: CellResult[] = [];

scope.onmessage = (event: MessageEvent<SummaryRequest>) => {
    const request = event.data;
    if (request.type === "open") {
        experiment = {spec: request.spec, dataset: request.dataset, rowIndexes: request.rowIndexes, pairs: request.pairs};
        cells = request.cells;
        return;
    }
    if (request.type === "cells") {
        for (const cell of request.cells) cells.push(cell);
        return;
    }
    if (experiment === null) return;
    try {
        const summary = summarizeExperiment(experiment.spec, experiment.dataset, cells, {rowIndexes: experiment.rowIndexes, ...(experiment.pairs === undefined ? {} : {pairs: experiment.pairs})});
        scope.postMessage({type: "summary", id: request.id, summary, cells: cells.length});
    } catch (error) {
        scope.postMessage({type: "error", id: request.id, message: error instanceof Error ? error.message : String(error)});
    }
};
