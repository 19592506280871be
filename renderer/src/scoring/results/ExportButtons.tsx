import {useState} from "react";
import {buildXlsxInWorker} from "../export/buildXlsxInWorker.ts";
import {exportCsv, exportXlsx, type ExportSource} from "../model/exportResults.ts";
import type {ScoringJob} from "../state/useScoringStore.ts";
import {downloadFile} from "../../utils/downloadFile.ts";

/** Downloads every row with its answer columns as CSV or XLSX. */
export function ExportButtons({job}: {job: ScoringJob}) {
    const [busy, setBusy] = useState<"csv" | "xlsx" | null>(null);
    const [error, setError] = useState<string | null>(null);
    const base = (job.table.fileName.replace(/\.[^.]+$/, "") || "results").replace(/[^\p{L}\p{N}._-]+/gu, "-");
    const source: ExportSource = {columns: job.table.columns, rows: job.table.rows, store: job.store, jobId: job.id, layout: job.layout};
    const run = async (kind: "csv" | "xlsx") => {
        setBusy(kind);
        setError(null);
        try {
            if (kind === "csv") downloadFile(`${base}.scored.csv`, await exportCsv(source), "text/csv;charset=utf-8");
            else downloadFile(`${base}.scored.xlsx`, await exportXlsx(source, buildXlsxInWorker), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
        } catch (caught) {
            setError((caught as Error).message);
        } finally {
            setBusy(null);
        }
    };
    return (
        <div className="row-gap">
            <button type="button" className="btn btn-sm" disabled={busy !== null} data-testid="export-csv" onClick={() => void run("csv")}>{busy === "csv" ? "Exporting…" : "Export CSV"}</button>
            <button type="button" className="btn btn-sm" disabled={busy !== null} data-testid="export-xlsx" onClick={() => void run("xlsx")}>{busy === "xlsx" ? "Exporting…" : "Export XLSX"}</button>
            {error && <span className="field-error inline" role="alert">{error}</span>}
        </div>
    );
}
