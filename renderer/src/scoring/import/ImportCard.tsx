import {useRef} from "react";
import {useScoringStore} from "../state/useScoringStore.ts";
import {importSpreadsheet, reloadSpreadsheet} from "./importSpreadsheet.ts";
import {TablePreview} from "./TablePreview.tsx";

/** Pick a CSV or XLSX file; choose the sheet and whether the first row names the columns; see the first rows. */
export function ImportCard() {
    const table = useScoringStore((state) => state.table);
    const loading = useScoringStore((state) => state.loading);
    const loadError = useScoringStore((state) => state.loadError);
    // A saved job's table (persist/) comes without its file: it cannot be read again with other options.
    const rereadable = useScoringStore((state) => state.source !== null);
    const input = useRef<HTMLInputElement>(null);
    return (
        <section className="card import-card" data-testid="import-card">
            <div className="card-title-row">
                <h3>1 · Table</h3>
                <button type="button" className="btn btn-sm btn-primary" onClick={() => input.current?.click()} disabled={loading !== null}>Import CSV or XLSX…</button>
                <input ref={input} type="file" hidden accept=".csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                    data-testid="scoring-file-input" onChange={(event) => {
                        const file = event.target.files?.[0];
                        event.target.value = "";
                        if (file) void importSpreadsheet(file);
                    }} />
                {loading && <span className="status-badge status-running" data-testid="import-loading">Reading {loading.fileName}: {loading.rows.toLocaleString("en-US")} rows</span>}
                {table && !loading && (
                    <span className="muted small" data-testid="import-summary">
                        {table.fileName}{table.sheet ? ` · ${table.sheet}` : ""} · {table.rows.length.toLocaleString("en-US")} rows × {table.columns.length} columns
                    </span>
                )}
            </div>
            {loadError && <div className="field-error" role="alert" data-testid="import-error">{loadError}</div>}
            {table && (
                <>
                    <div className="row-gap import-options">
                        {table.format === "xlsx" && (
                            <label className="row-gap small">Sheet
                                <select className="input input-sm" value={table.sheet ?? ""} data-testid="sheet-picker" disabled={loading !== null || !rereadable}
                                    onChange={(event) => void reloadSpreadsheet({sheet: event.target.value})}>
                                    {table.sheets.map((sheet) => <option key={sheet} value={sheet}>{sheet}</option>)}
                                </select>
                            </label>
                        )}
                        <label className="row-gap small">Header row
                            <select className="input input-sm" value={String(table.header)} data-testid="header-mode" disabled={loading !== null || !rereadable}
                                onChange={(event) => void reloadSpreadsheet({header: event.target.value === "auto" ? "auto" : event.target.value === "true"})}>
                                <option value="auto">detect ({table.headerDetected ? "found one" : "none found"})</option>
                                <option value="true">first row names the columns</option>
                                <option value="false">no header: column_1, column_2…</option>
                            </select>
                        </label>
                    </div>
                    <TablePreview table={table} />
                </>
            )}
            {!table && !loading && <div className="empty-state">Import a CSV (UTF-8 or UTF-16, any delimiter) or an XLSX workbook. Large files are read in batches; the page stays usable.</div>}
        </section>
    );
}
