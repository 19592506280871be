import {useDeferredValue, useMemo, useState} from "react";
import type {CellValue} from "../../../../client/scoring/index.ts";
import {filterRowOrder, type RowFilter} from "../model/filterRowOrder.ts";
import {sortRowOrder, type SortDirection} from "../model/sortRowOrder.ts";
import {useScoringStore, type LoadedTable, type ScoringJob} from "../state/useScoringStore.ts";
import {formatCell} from "./formatCell.ts";
import {resultCellsOf} from "./jobCaches.ts";

const rowHeight = 30;
const viewportHeight = 420;
/** Rows drawn above and below the visible ones, so fast scrolling shows no blank band. */
const overscan = 8;

type Props = {table: LoadedTable, job: ScoringJob | null};

/**
 * Every row with its answer columns, virtualized: only the rows in view (plus a few) are in the DOM, so
 * 100,000 rows scroll as smoothly as 10. Click a header to sort (again to reverse, a third time to clear);
 * filter by text in any or one column, or show only the rows whose request failed.
 */
export function ResultsGrid({table, job}: Props) {
    const version = useScoringStore((state) => state.resultsVersion);
    const [sort, setSort] = useState<{column: number, direction: SortDirection} | null>(null);
    const [filter, setFilter] = useState<RowFilter>({text: "", column: null, errorsOnly: false});
    const deferredFilter = useDeferredValue(filter);
    const [scrollTop, setScrollTop] = useState(0);
    const sourceWidth = table.columns.length;
    const columns = useMemo(() => [...table.columns, ...(job ? job.layout.columns : [])], [table, job]);

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
                <div style={{width: totalWidth, minWidth: "100%"}}>
                    <div className="grid-row grid-header" style={{gridTemplateColumns: template}} role="row">
                        <span className="grid-cell muted">#</span>
                        {columns.map((column, index) => (
                            <button key={column} type="button" className={`grid-cell grid-sort${index >= sourceWidth ? " answer-column" : ""}`} title={`Sort by ${column}`}
                                data-testid="grid-sort" data-column={column} onClick={() => cycleSort(index)}>
                                <span className="grid-cell-text">{column}</span>
                                {sort?.column === index && <span aria-label={sort.direction === "asc" ? "ascending" : "descending"}>{sort.direction === "asc" ? "▲" : "▼"}</span>}
                            </button>
                        ))}
                    </div>
                    <div className="grid-body" style={{height: order.length * rowHeight}}>
                        {order.slice(first, last).map((rowIndex, offset) => {
                            const result = job?.results[rowIndex];
                            const cells = job ? [...table.rows[rowIndex], ...resultCellsOf(job, rowIndex)] : table.rows[rowIndex];
                            return (
                                <div key={rowIndex} className={`grid-row${result?.ok === false ? " is-error" : ""}`} role="row" data-testid="grid-row" data-row={rowIndex}
                                    style={{gridTemplateColumns: template, transform: `translateY(${(first + offset) * rowHeight}px)`}}>
                                    <span className="grid-cell muted mono">{rowIndex + 1}</span>
                                    {cells.map((cell, column) => {
                                        const text = formatCell(cell);
                                        return <span key={column} className={`grid-cell${column >= sourceWidth ? " mono answer-column" : ""}`} title={text}>{text}</span>;
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
