// Summarises an experiment off the page's thread: the paired bootstrap over every metric of 10,000 rows takes long
// enough to freeze the screen, so the page sends the experiment once, then only the cells that arrived since. With a
// pinned baseline run (sent once, its rows keyed once), each summary comes with the run tested against it
// (client/experiments/baseline.ts, the test `svc-studio eval --no-regression` makes).
import {baselineTargets, compareWithBaseline, type BaselineComparison} from "../../../../client/experiments/baseline.ts";
import {prepareRun, type PreparedRun, type RunData} from "../../../../client/experiments/rowOutcomes.ts";
import {summarizeExperiment, type PairChoice} from "../../../../client/experiments/summary.ts";
import type {CellResult, Dataset, ExperimentSpec, ExperimentSummary} from "../../../../client/experiments/types.ts";

export type SummaryRequest =
    | {type: "open", spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], cells: CellResult[], pairs?: PairChoice}
    | {type: "cells", cells: CellResult[]}
    | {type: "baseline", run: RunData | null}
    | {type: "summarize", id: number};

/** The run against its pinned baseline, or why it could not be tested; null with no baseline. */
export type BaselineAnswer = BaselineComparison | {error: string} | null;

export type SummaryAnswer =
    | {type: "summary", id: number, summary: ExperimentSummary, cells: number, baseline: BaselineAnswer}
    | {type: "error", id: number, message: string};

// The project's TypeScript lib is the DOM one (the WebWorker lib conflicts with it): the worker scope, as used here.
const scope = self as unknown as {
    postMessage: (message: SummaryAnswer) => void,
    onmessage: ((event: MessageEvent<SummaryRequest>) => void) | null
};

let experiment: {spec: ExperimentSpec, dataset: Dataset, rowIndexes: number[], pairs?: PairChoice} | null = null;
let cells: CellResult[] = [];
let baseline: PreparedRun | {error: string} | null = null;

const message = (error: unknown) => error instanceof Error ? error.message : String(error);

/** The summarised run against the baseline, on every pass / fail metric the summary has. */
function againstBaseline(summary: ExperimentSummary): BaselineAnswer {
    if (baseline === null || experiment === null) return null;
    if ("error" in baseline) return baseline;
    try {
        const current = prepareRun({spec: experiment.spec, dataset: experiment.dataset, rowIndexes: experiment.rowIndexes, cells});
        return compareWithBaseline(current, baseline, baselineTargets(summary));
    } catch (error) {
        return {error: message(error)};
    }
}

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
    if (request.type === "baseline") {
        try {
            baseline = request.run === null ? null : prepareRun(request.run);
        } catch (error) {
            baseline = {error: message(error)};
        }
        return;
    }
    if (experiment === null) return;
    try {
        const summary = summarizeExperiment(experiment.spec, experiment.dataset, cells, {rowIndexes: experiment.rowIndexes, ...(experiment.pairs === undefined ? {} : {pairs: experiment.pairs})});
        scope.postMessage({type: "summary", id: request.id, summary, cells: cells.length, baseline: againstBaseline(summary)});
    } catch (error) {
        scope.postMessage({type: "error", id: request.id, message: message(error)});
    }
};
