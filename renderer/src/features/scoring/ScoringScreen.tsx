// The Spreadsheet scoring screen: importing a table, mapping its columns into the input, then the run and results cards.
import {useRef, useMemo} from "react";
import {defaultRowColumns, labelColumns} from "../../../../client/scoring/index.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {rowInput} from "../questionSet/requests.ts";
import {ResultsCard} from "./ResultsCard.tsx";
import {SavedJobsCard, ScoringRunCard} from "./ScoringRunCard.tsx";
import {importSpreadsheet, reloadSpreadsheet} from "./importSpreadsheet.ts";
import {formatCell} from "./scoringModel.ts";
import {useScoringStore, type LoadedTable} from "./scoringStore.ts";
import "./scoring.css";

/** Spreadsheet scoring: a table in, the question set over every row, results out; jobs saved in the browser. */
export function ScoringScreen() {
    return (
        <div className="page scoring-page" data-testid="scoring-screen">
            <SavedJobsCard />
            <ImportCard />
            <div className="scoring-setup">
                <InputMappingCard />
                <ScoringRunCard />
            </div>
            <ResultsCard />
        </div>
    );
}

/** Pick a CSV or XLSX file; choose the sheet and whether the first row names the columns; see the first rows. */
export function ImportCard() {
    const table = useScoringStore((state) => state.table);
    const loading = useScoringStore((state) => state.loading);
    const loadError = useScoringStore((state) => state.loadError);
    // A saved job's table (savedJobs.ts) comes without its file: it cannot be read again with other options.
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

/** The first rows of the table, as read; focusable, so the keyboard scrolls it too when it is wider than its card. */
export function TablePreview({table, rows = 6}: {table: LoadedTable, rows?: number}) {
    return (
        <div className="table-preview" data-testid="table-preview" tabIndex={0} role="region" aria-label="The table's first rows">
            <table className="table compact">
                <thead><tr><th>#</th>{table.columns.map((column) => <th key={column}>{column}</th>)}</tr></thead>
                <tbody>
                    {table.rows.slice(0, rows).map((row, index) => (
                        <tr key={index}>
                            <td className="muted mono">{index + 1}</td>
                            {row.map((cell, column) => <td key={column} title={formatCell(cell)}>{formatCell(cell)}</td>)}
                        </tr>
                    ))}
                </tbody>
            </table>
        </div>
    );
}

/**
 * How a row becomes the input: a template with {{column}} placeholders, or the row as a JSON state over the
 * columns picked (label columns start unpicked: sent with the row they would tell the model the answer).
 */
export function InputMappingCard() {
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    const set = useScoringStore((state) => state.set);
    const questionNames = useQuestionSetStore((state) => state.draft.questions.map((question) => question.name).join("\u0000"));
    const textarea = useRef<HTMLTextAreaElement>(null);
    const preview = useMemo(() => {
        if (table === null || table.rows.length === 0) return null;
        try {
            const input = rowInput(table, table.rows[0], mapping);
            return {text: input.kind === "text" ? input.text : JSON.stringify(input.value, null, 2), error: null};
        } catch (error) {
            return {text: null, error: (error as Error).message};
        }
    }, [table, mapping]);
    if (table === null) return null;
    const template = mapping.kind === "template" ? mapping.template : "";
    const insert = (column: string) => {
        const element = textarea.current;
        const placeholder = `{{${column}}}`;
        const at = element?.selectionStart ?? template.length;
        const end = element?.selectionEnd ?? at;
        set({mapping: {kind: "template", template: template.slice(0, at) + placeholder + template.slice(end)}});
        requestAnimationFrame(() => {
            element?.focus();
            element?.setSelectionRange(at + placeholder.length, at + placeholder.length);
        });
    };
    return (
        <section className="card mapping-card" data-testid="mapping-card">
            <div className="card-title-row">
                <h3>2 · Input</h3>
                <div className="segmented" role="radiogroup" aria-label="Input mapping">
                    <button type="button" role="radio" aria-checked={mapping.kind === "template"} className={mapping.kind === "template" ? "active" : ""} data-testid="mapping-template-mode"
                        onClick={() => set({mapping: {kind: "template", template: template || `{{${table.columns[0] ?? ""}}}`}})}>Template</button>
                    <button type="button" role="radio" aria-checked={mapping.kind === "row"} className={mapping.kind === "row" ? "active" : ""} data-testid="mapping-row-mode"
                        onClick={() => set({mapping: {kind: "row", columns: defaultRowColumns(questionNames.split("\u0000"), table.columns)}})}>Whole row as JSON state</button>
                </div>
            </div>
            {mapping.kind === "template" && (
                <>
                    <textarea ref={textarea} className="input textarea mono" rows={3} value={template} aria-label="Input template" data-testid="mapping-template"
                        onChange={(event) => set({mapping: {kind: "template", template: event.target.value}})} />
                    <div className="chips column-chips">
                        {table.columns.map((column) => (
                            <button key={column} type="button" className="chip chip-button mono" title={`Insert {{${column}}}`} onClick={() => insert(column)}>{`{{${column}}}`}</button>
                        ))}
                    </div>
                </>
            )}
            {mapping.kind === "row" && (
                <RowColumnsPicker columns={table.columns} chosen={mapping.columns ?? table.columns} labels={labelColumns(questionNames.split("\u0000"), table.columns)}
                    onChange={(columns) => set({mapping: {kind: "row", columns}})} />
            )}
            {preview?.error && <div className="field-error" role="alert" data-testid="mapping-error">{preview.error}</div>}
            {preview?.text !== null && preview?.text !== undefined && (
                <div>
                    <span className="card-label">Row 1 becomes</span>
                    <pre className="small-code" data-testid="mapping-preview">{preview.text}</pre>
                </div>
            )}
        </section>
    );
}

type RowColumnsPickerProps = {columns: string[], chosen: readonly string[], labels: Set<string>, onChange: (columns: string[]) => void};

/** Which columns whole-row mode sends, each a checkbox; the label columns are marked, and start unchecked. */
export function RowColumnsPicker({columns, chosen, labels, onChange}: RowColumnsPickerProps) {
    const picked = new Set(chosen);
    const toggle = (column: string, on: boolean) => onChange(columns.filter((name) => name === column ? on : picked.has(name)));
    return (
        <fieldset className="row-columns" data-testid="row-columns">
            <legend className="card-label">Columns sent</legend>
            <div className="chips">
                {columns.map((column) => (
                    <label key={column} className={`check chip row-column${labels.has(column) ? " is-label" : ""}`} data-testid="row-column" data-column={column}
                        title={labels.has(column) ? "Holds labels: sent with the row, it tells the model the answer" : undefined}>
                        <input type="checkbox" checked={picked.has(column)} onChange={(event) => toggle(column, event.target.checked)} />
                        <span className="mono">{column}</span>{labels.has(column) && <span className="badge badge-warn">label</span>}
                    </label>
                ))}
            </div>
            {[...labels].some((column) => picked.has(column)) && (
                <div className="field-warning" data-testid="row-label-warning">A label column is sent with each row: the model sees the answer.</div>
            )}
        </fieldset>
    );
}
