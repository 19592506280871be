// What the Experiments screen exports, built by client/experiments as the CLI builds them: the HTML report (one
// self-contained file), the per-row table as CSV, or as XLSX written in a worker (the scoring screen's), and the
// experiment file with its dataset inline.
import {serializeExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import {serializeExperimentResults} from "../../../../client/experiments/resultsFile.ts";
import {experimentExportTable, exportTableCsv, type ExportTable} from "../../../../client/experiments/exportCells.ts";
import {renderExperimentReport} from "../../../../client/experiments/report.ts";
import type {CellResult, ExperimentSummary} from "../../../../client/experiments/types.ts";
import {buildXlsxInWorker} from "../scoring/ResultsCard.tsx";
import {cellKey, type OpenExperiment} from "./experimentStore.ts";
import {repeatsOf} from "../../../../client/experiments/repeats.ts";

/** The experiment file: the spec as it ran, its dataset inline, so `svc-studio eval` runs it anywhere. */
export function experimentFileText(open: OpenExperiment): string {
    return serializeExperimentSpec({...open.spec, dataset: open.dataset});
}

/** The experiment with its dataset inline and every cell: what `svc-studio eval --results` writes, read back by History. */
export function resultsFileText(open: OpenExperiment): string {
    return serializeExperimentResults({experiment: {...open.spec, dataset: open.dataset}, rowIndexes: open.rowIndexes, cells: cellsOf(open)});
}

/** The open experiment's cells, in sample order. */
function cellsOf(open: OpenExperiment): CellResult[] {
    const cells: CellResult[] = [];
    const variants = open.spec.variants.length, repeats = repeatsOf(open.spec);
    for (const rowIndex of open.rowIndexes)
        for (let variant = 0; variant < variants; variant++)
            for (let repeat = 0; repeat < repeats; repeat++) {
                const cell = open.cells.get(cellKey(rowIndex, variant, variants, repeat, repeats));
                if (cell !== undefined) cells.push(cell);
            }
    return cells;
}

function table(open: OpenExperiment): ExportTable {
    return experimentExportTable({...open.spec, dataset: open.dataset}, open.dataset, cellsOf(open), open.rowIndexes);
}

export function exportCsv(open: OpenExperiment): string {
    return exportTableCsv(table(open));
}

export function exportXlsx(open: OpenExperiment): Promise<Uint8Array> {
    const {columns, rows} = table(open);
    return buildXlsxInWorker(columns, rows, "Experiment");
}

export function reportHtml(open: OpenExperiment, summary: ExperimentSummary): string {
    return renderExperimentReport({...open.spec, dataset: open.dataset}, summary, {dataset: open.dataset});
}
