// A job's results: the grid (sort, filter), the per-question histograms, and CSV / XLSX export.
import {useDeferredValue, useMemo, useState} from "react";
import {Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import {type CellValue, type QuestionInfo, scoreDefinitions} from "../../../../client/scoring/index.ts";
import {downloadFile} from "../../ui/browser.ts";
import {chartName} from "../../ui/chartName.ts";
import {filterRowOrder, type RowFilter, sortRowOrder, type SortDirection, formatCell, resultCellsOf, histogramBins, answersOf, type HistogramBin, exportCsv, exportXlsx, type ExportSource, meanExpectedScore} from "./scoringModel.ts";
import {useScoringStore, type LoadedTable, type ScoringJob} from "./scoringStore.ts";
import type {XlsxExportAnswer, XlsxExportRequest} from "./xlsxExportWorker.ts";
import XlsxExportWorker from "./xlsxExportWorker.ts?worker";

/** The job's results: a histogram per question, the grid, and the exports. */
export function ResultsCard() {
    const table = useScoringStore((state) => state.table);
    const job = useScoringStore((state) => state.job);
    if (table === null) return null;
    // Results belong to the table the job scored; another file shows without them.
    const current = job !== null && job.table === table ? job : null;
    return (
        <section className="card results-card" data-testid="results-card">
            <div className="card-title-row">
                <h3>4 · Results</h3>
                {current && <div className="push-right"><ExportButtons job={current} /></div>}
            </div>
            {current && <QuestionHistograms job={current} />}
            <ResultsGrid table={table} job={current} />
        </section>
    );
}

const rowHeight = 30;
const viewportHeight = 420;
/** Rows drawn above and below the visible ones, so fast scrolling shows no blank band. */
const overscan = 8;

type ResultsGridProps = {table: LoadedTable, job: ScoringJob | null};

/**
 * Every row with its answer columns, virtualized: only the rows in view (plus a few) are in the DOM, so
 * 100,000 rows scroll as smoothly as 10. Click a header to sort (again to reverse, a third time to clear);
 * filter by text in any or one column, or show only the rows whose request failed.
 */
export function ResultsGrid({table, job}: ResultsGridProps) {
    const version = useScoringStore((state) => state.resultsVersion);
    const [sort, setSort] = useState<{column: number, direction: SortDirection} | null>(null);
    const [filter, setFilter] = useState<RowFilter>({text: "", column: null, errorsOnly: false});
    const deferredFilter = useDeferredValue(filter);
    const [scrollTop, setScrollTop] = useState(0);
    const sourceWidth = table.columns.length;
    const columns = useMemo(() => [...table.columns, ...(job ? job.layout.columns : [])], [table, job]);
    // What an answer column holds, one hover away on its header.
    const hintOf = (index: number) => index < sourceWidth || job === null ? "" : `${job.layout.hints[index - sourceWidth]}. `;

    const order = useMemo(() => {
        const cellOf = (rowIndex: number, column: number): CellValue | undefined =>
            column < sourceWidth ? table.rows[rowIndex][column] : job ? resultCellsOf(job, rowIndex)[column - sourceWidth] : null;
        let indexes = Array.from({length: table.rows.length}, (_, index) => index);
        if (sort) indexes = sortRowOrder(indexes, (rowIndex) => cellOf(rowIndex, sort.column), sort.direction);
        return filterRowOrder(indexes, (rowIndex) => job ? [...table.rows[rowIndex], ...resultCellsOf(job, rowIndex)] : table.rows[rowIndex],
            (rowIndex) => job?.results[rowIndex]?.ok === false, deferredFilter);
        // `version` says new results arrived: the answer cells of some rows changed.
    }, [table, job, version, sort, deferredFilter, sourceWidth]);

    const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
    const last = Math.min(order.length, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
    const widths = [Math.max(48, 18 + 8 * String(table.rows.length).length), ...columns.map((_, index) => index < sourceWidth ? 200 : 132)];
    const template = widths.map((width) => `${width}px`).join(" ");
    const totalWidth = widths.reduce((sum, width) => sum + width, 0);
    const cycleSort = (column: number) => setSort((current) => current?.column !== column ? {column, direction: "asc"}
        : current.direction === "asc" ? {column, direction: "desc"} : null);

    return (
        <div className="results-grid-wrap">
            <div className="grid-tools">
                <input className="input input-sm grid-filter" value={filter.text} placeholder="Filter rows…" aria-label="Filter rows" data-testid="grid-filter"
                    onChange={(event) => setFilter({...filter, text: event.target.value})} />
                <select className="input input-sm" value={filter.column ?? ""} aria-label="Filter column" data-testid="grid-filter-column"
                    onChange={(event) => setFilter({...filter, column: event.target.value === "" ? null : Number(event.target.value)})}>
                    <option value="">in any column</option>
                    {columns.map((column, index) => <option key={column} value={index}>in {column}</option>)}
                </select>
                <label className="check small">
                    <input type="checkbox" checked={filter.errorsOnly} data-testid="grid-errors-only" onChange={(event) => setFilter({...filter, errorsOnly: event.target.checked})} />
                    errors only
                </label>
                <span className="muted small push-right" data-testid="grid-count">{order.length.toLocaleString("en-US")} of {table.rows.length.toLocaleString("en-US")} rows</span>
            </div>
            <div className="grid-viewport" style={{height: viewportHeight}} data-testid="results-grid" onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
                {/* Only the rows in view are in the DOM: aria-rowcount and aria-rowindex tell a screen reader where they are. */}
                <div style={{width: totalWidth, minWidth: "100%"}} role="table" aria-label="Rows with their answers" aria-rowcount={order.length + 1}>
                    <div className="grid-row grid-header" style={{gridTemplateColumns: template}} role="row" aria-rowindex={1}>
                        <span className="grid-cell muted" role="columnheader">#</span>
                        {columns.map((column, index) => (
                            <span key={column} className="grid-colhead" role="columnheader"
                                aria-sort={sort?.column !== index ? undefined : sort.direction === "asc" ? "ascending" : "descending"}>
                                <button type="button" className={`grid-cell grid-sort${index >= sourceWidth ? " answer-column" : ""}`} title={`${hintOf(index)}Sort by ${column}`}
                                    data-testid="grid-sort" data-column={column} onClick={() => cycleSort(index)}>
                                    <span className="grid-cell-text">{column}</span>
                                    {sort?.column === index && <span aria-hidden="true">{sort.direction === "asc" ? "▲" : "▼"}</span>}
                                </button>
                            </span>
                        ))}
                    </div>
                    <div className="grid-body" style={{height: order.length * rowHeight}} role="rowgroup">
                        {order.slice(first, last).map((rowIndex, offset) => {
                            const result = job?.results[rowIndex];
                            const cells = job ? [...table.rows[rowIndex], ...resultCellsOf(job, rowIndex)] : table.rows[rowIndex];
                            return (
                                <div key={rowIndex} className={`grid-row${result?.ok === false ? " is-error" : ""}`} role="row" aria-rowindex={first + offset + 2} data-testid="grid-row" data-row={rowIndex}
                                    style={{gridTemplateColumns: template, transform: `translateY(${(first + offset) * rowHeight}px)`}}>
                                    <span className="grid-cell muted mono" role="cell">{rowIndex + 1}</span>
                                    {cells.map((cell, column) => {
                                        const text = formatCell(cell);
                                        return <span key={column} className={`grid-cell${column >= sourceWidth ? " mono answer-column" : ""}`} role="cell" title={text}>{text}</span>;
                                    })}
                                </div>
                            );
                        })}
                    </div>
                </div>
            </div>
        </div>
    );
}

/** One histogram per question of the job, over the rows scored so far. */
export function QuestionHistograms({job}: {job: ScoringJob}) {
    const version = useScoringStore((state) => state.resultsVersion);
    const histograms = useMemo(() => {
        const rows = Array.from({length: job.results.length}, (_, rowIndex) => answersOf(job, rowIndex));
        const answered = rows.filter((answers) => answers !== null).length;
        return job.infos.map((info, index) => {
            const answers = rows.map((row) => row?.[index] ?? null);
            return {info, answered, bins: histogramBins(info, answers), meanExpected: info.kind === "score" ? meanExpectedScore(answers) : null};
        });
    }, [job, version]);
    return (
        <div className="histograms">
            {histograms.map(({info, bins, answered, meanExpected}) => <QuestionHistogram key={info.name} name={info.name} kind={info.kind} bins={bins} answered={answered} meanExpected={meanExpected} />)}
        </div>
    );
}

type QuestionHistogramProps = {name: string, kind: QuestionInfo["kind"], bins: HistogramBin[], answered: number, meanExpected: number | null};

const histogramBadges = {yesno: "P(true)", choice: "most likely value", score: "most likely level"} as const;

/**
 * How one question was answered over all scored rows: P(true) in bins, how often each value or level was the
 * most likely one; for a score question, the mean expected score beside it.
 */
export function QuestionHistogram({name, kind, bins, answered, meanExpected}: QuestionHistogramProps) {
    const counts = bins.map((bin) => `${bin.label}: ${bin.count}`).join(", ");
    return (
        <div className="card histogram-card" data-testid="histogram" data-name={name}>
            <div className="answer-head">
                <span className="strong mono">{name}</span>
                <span className="badge" data-testid="histogram-rule" title={kind === "score" ? scoreDefinitions.predicted : undefined}>{histogramBadges[kind]}</span>
                <span className="muted small push-right">{answered.toLocaleString("en-US")} answered</span>
            </div>
            {kind === "score" && meanExpected !== null && (
                <span className="histogram-note" data-testid="histogram-expected" title={scoreDefinitions.expected}>mean expected score <span className="mono">{meanExpected.toFixed(2)}</span></span>
            )}
            <div className="chart" style={{height: 150}}>
                <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={bins} margin={{top: 6, right: 6, bottom: 0, left: -18}} {...chartName(`${name}: rows per ${histogramBadges[kind]}: ${counts}`)}>
                        <XAxis dataKey="label" tick={{fill: "var(--text-2)", fontSize: 10}} interval={kind === "yesno" ? 1 : 0} />
                        <YAxis allowDecimals={false} tick={{fill: "var(--muted)", fontSize: 10}} />
                        <Tooltip cursor={{fill: "var(--surface-2)"}} contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                        <Bar dataKey="count" fill="var(--accent)" isAnimationActive={false} radius={[3, 3, 0, 0]} />
                    </BarChart>
                </ResponsiveContainer>
            </div>
        </div>
    );
}

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

const chunkRows = 5_000;

/**
 * client/spreadsheets/xlsx/buildXlsx, run in a Web Worker: the same workbook, without blocking the page. Rows
 * are sent in chunks as they are joined, so the page never holds a second copy of the whole export.
 */
export async function buildXlsxInWorker(columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, sheetName = "Results"): Promise<Uint8Array> {
    const worker = new XlsxExportWorker();
    const send = (request: XlsxExportRequest) => worker.postMessage(request);
    try {
        const answer = new Promise<Uint8Array>((resolve, reject) => {
            worker.onmessage = (event: MessageEvent<XlsxExportAnswer>) => {
                if (event.data.type === "built") resolve(event.data.bytes);
                else reject(new Error(event.data.message));
            };
            worker.onerror = (event) => reject(new Error(event.message || "the XLSX writer failed"));
        });
        let chunk: CellValue[][] = [];
        for await (const row of rows) {
            chunk.push(row);
            if (chunk.length < chunkRows) continue;
            send({type: "rows", rows: chunk});
            chunk = [];
        }
        if (chunk.length > 0) send({type: "rows", rows: chunk});
        send({type: "build", columns: [...columns], sheetName});
        return await answer;
    } finally {
        worker.terminate();
    }
}
