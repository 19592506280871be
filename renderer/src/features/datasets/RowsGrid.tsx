// A dataset's rows, virtualised (only the rows in view are in the DOM, so 100,000 rows scroll as smoothly as 10): filter
// them, open one in the row form to change it (its Edit button, or a click on the row), delete one with Undo.
import {useDeferredValue, useMemo, useState} from "react";
import type {SheetRow} from "../../../../client/scoring/index.ts";
import type {Dataset} from "../../../../client/experiments/types.ts";
import {Icon} from "../../ui/controls.tsx";
import {cellText} from "../../../../client/scoring/index.ts";
import {changeDataset} from "./datasetSaves.ts";

const rowHeight = 30;
const viewportHeight = 360;
/** Rows drawn above and below the visible ones, so fast scrolling shows no blank band. */
const overscan = 8;

type Props = {dataset: Dataset, /** Rows the dataset holds, all read or not. */ total: number, complete: boolean, editing: number | null, onEdit: (row: number) => void, onMessage: (message: {ok: boolean, text: string, undo?: () => void}) => void};

export function RowsGrid({dataset, total, complete, editing, onEdit, onMessage}: Props) {
    const [scrollTop, setScrollTop] = useState(0);
    const [filter, setFilter] = useState("");
    const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
    const order = useMemo(() => {
        const indexes = Array.from({length: dataset.rows.length}, (_, index) => index);
        if (deferredFilter === "") return indexes;
        return indexes.filter((index) => dataset.rows[index].some((cell) => cellText(cell).toLowerCase().includes(deferredFilter)));
    }, [dataset, deferredFilter]);
    const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
    const last = Math.min(order.length, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
    // Columns share the width (at least 110 px each), so a few columns fit the window and many scroll sideways.
    const numberWidth = Math.max(48, 18 + 8 * String(dataset.rows.length).length);
    const template = `${numberWidth}px ${dataset.columns.map(() => "minmax(110px, 1fr)").join(" ")} 72px`;
    const totalWidth = numberWidth + 110 * dataset.columns.length + 72;
    const removeRow = (row: number) => {
        const removed: SheetRow = dataset.rows[row];
        void changeDataset(dataset.id, () => ({edits: [{op: "delete", index: row}]})).then((deleted) => onMessage(deleted.ok
            ? {ok: true, text: `Deleted row ${row + 1}.`, undo: () => void changeDataset(dataset.id, () => ({edits: [{op: "insert", index: row, cells: removed}]}))}
            : {ok: false, text: deleted.text}));
    };

    return (
        <div className="results-grid-wrap">
            <div className="grid-tools">
                <input className="input input-sm grid-filter" value={filter} placeholder="Filter rows…" aria-label="Filter rows" data-testid="dataset-filter"
                    onChange={(event) => setFilter(event.target.value)} />
                <span className="muted small push-right" data-testid="dataset-row-count">
                    {complete ? <>{order.length.toLocaleString("en-US")} of {dataset.rows.length.toLocaleString("en-US")} rows · click a row to edit it</>
                        : <>Reading rows: {dataset.rows.length.toLocaleString("en-US")} of {total.toLocaleString("en-US")}…</>}
                </span>
            </div>
            <div className="grid-viewport" style={{height: viewportHeight}} data-testid="dataset-grid" onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
                {/* Only the rows in view are in the DOM: aria-rowcount and aria-rowindex tell a screen reader where they are. */}
                <div style={{width: totalWidth, minWidth: "100%"}} role="table" aria-label={`Rows of ${dataset.name}`} aria-rowcount={order.length + 1}>
                    <div className="grid-row grid-header" style={{gridTemplateColumns: template}} role="row" aria-rowindex={1}>
                        <span className="grid-cell muted" role="columnheader">#</span>
                        {dataset.columns.map((column, index) => {
                            const label = dataset.labelColumns.includes(column);
                            const hidden = !label && !dataset.inputColumns.includes(column);
                            return (
                                <span key={column} className="grid-cell dataset-colhead" role="columnheader" data-testid="dataset-column" data-column={column}
                                    title={`${column}: ${dataset.columnTypes[index]}${label ? "; a label column: expected values, not sent to the model" : hidden ? "; not sent to the model" : "; the model sees it"}`}>
                                    <span className="grid-cell-text">{column}</span>
                                    {label && <span className="badge badge-accent">label</span>}
                                    {hidden && <span className="badge">hidden</span>}
                                </span>
                            );
                        })}
                        <span className="grid-cell" role="columnheader"><span className="sr-only">Edit or delete</span></span>
                    </div>
                    <div className="grid-body" style={{height: order.length * rowHeight}} role="rowgroup">
                        {order.slice(first, last).map((rowIndex, offset) => (
                            <div key={rowIndex} className={`grid-row dataset-row${editing === rowIndex ? " is-editing" : ""}`} role="row" onClick={() => onEdit(rowIndex)} aria-rowindex={first + offset + 2} data-testid="dataset-row" data-row={rowIndex}
                                style={{gridTemplateColumns: template, transform: `translateY(${(first + offset) * rowHeight}px)`}}>
                                <span className="grid-cell muted mono" role="cell">{rowIndex + 1}</span>
                                {dataset.columns.map((column, columnIndex) => {
                                    const text = cellText(dataset.rows[rowIndex][columnIndex]);
                                    return <span key={column} className="grid-cell" role="cell" title={text} data-testid="dataset-cell">{text}</span>;
                                })}
                                <span className="grid-cell dataset-actions" role="cell">
                                    <button type="button" className="icon-btn" aria-label={`Edit row ${rowIndex + 1}`} title="Edit row" data-testid="dataset-row-edit"
                                        onClick={(event) => {
                                            event.stopPropagation();
                                            onEdit(rowIndex);
                                        }}><Icon name="completions" size={14} /></button>
                                    <button type="button" className="icon-btn danger" aria-label={`Delete row ${rowIndex + 1}`} title="Delete row (with Undo)"
                                        onClick={(event) => {
                                            event.stopPropagation();
                                            removeRow(rowIndex);
                                        }}><Icon name="close" size={14} /></button>
                                </span>
                            </div>
                        ))}
                    </div>
                </div>
            </div>
        </div>
    );
}
