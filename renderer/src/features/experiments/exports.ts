// What the Experiments screen exports: the HTML report and the per-row table (client/experiments builds both, as the
// CLI does), the table as CSV, or as XLSX written in a worker; and the experiment file with its dataset inline.
import {serializeExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import type {CellResult, ExperimentSpec, ExperimentSummary} from "../../../../client/experiments/types.ts";
import {formatCsv, type CellValue} from "../../../../client/scoring/index.ts";
import {buildXlsxInWorker} from "../scoring/ResultsCard.tsx";
import {cellKey, type OpenExperiment} from "./experimentStore.ts";

/** The experiment file: the spec as it ran, its dataset inline, so `svc-studio eval` runs it anywhere. */
export function experimentFileText(open: OpenExperiment): string {
    return serializeExperimentSpec({...open.spec, dataset: open.dataset});
}

/** The open experiment's cells, in sample order. */
export function cellsOf(open: OpenExperiment): CellResult[] {
    const cells: CellResult[] = [];
    const variants = open.spec.variants.length;
    for (const rowIndex of open.rowIndexes)
        for (let variant = 0; variant < variants; variant++) {
            const cell = open.cells.get(cellKey(rowIndex, variant, variants));
            if (cell !== undefined) cells.push(cell);
        }
    return cells;
}

function table(open: OpenExperiment): {columns: string[], rows: CellValue[][]} {
    return rowTable(open.spec, open.dataset, open.rowIndexes, cellsOf(open));
}

export function exportCsv(open: OpenExperiment): string {
    const {columns, rows} = table(open);
    return formatCsv([columns, ...rows], {bom: true});
}

export function exportXlsx(open: OpenExperiment): Promise<Uint8Array> {
    const {columns, rows} = table(open);
    return buildXlsxInWorker(columns, rows, "Experiment");
}

export function reportHtml(open: OpenExperiment, summary: ExperimentSummary): string {
    return experimentReport({...open.spec, dataset: open.dataset}, summary);
}

/** Placeholder until the shared per-row table lands: the dataset's columns, then per variant its reply and whether it passed. */
function rowTable(spec: ExperimentSpec, dataset: OpenExperiment["dataset"], rowIndexes: readonly number[], cells: readonly CellResult[]): {columns: string[], rows: CellValue[][]} {
    const variants = spec.variants.length;
    const byKey = new Map(cells.map((cell) => [cellKey(cell.rowIndex, cell.variant, variants), cell]));
    const columns = [...dataset.columns, ...spec.variants.flatMap((variant) => [`${variant.name} reply`, `${variant.name} ok`])];
    const rows = rowIndexes.map((rowIndex) => [...dataset.rows[rowIndex], ...spec.variants.flatMap((_variant, index): CellValue[] => {
        const cell = byKey.get(cellKey(rowIndex, index, variants));
        return [cell?.reply ?? null, cell?.ok ?? null];
    })]);
    return {columns, rows};
}

function experimentReport(spec: ExperimentSpec, summary: ExperimentSummary): string {
    const escape = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
    return `<!doctype html><meta charset="utf-8"><title>${escape(spec.name)}</title><h1>${escape(spec.name)}</h1><pre>${escape(JSON.stringify(summary, null, 2))}</pre>`;
}
