// The rows where the variants disagree (client/experiments/disagreements.ts says when), the largest spread first,
// virtualised so 10,000 entries scroll as smoothly as 10; opening one shows each variant's full request, response,
// answers and checks for that row. A row holds one entry per question (and one for the checks), so every entry is
// keyed by row and question: keyed by row alone, two entries of a row share a key, and as the list is replaced while
// cells arrive React keeps the element of one of them and never removes it, piling rows on top of each other.
import {useState} from "react";
import {answerLines, describeDisagreementCount, disagreementKey, spreadDefinition, spreadName} from "../../../../client/experiments/disagreements.ts";
import {formatLatency, formatMetric} from "../../../../client/experiments/metricDefinitions.ts";
import type {CellResult, Disagreement, ExperimentSummary, Variant} from "../../../../client/experiments/types.ts";
import {Icon} from "../../ui/controls.tsx";
import {cellKey, useExperimentStore, type OpenExperiment} from "./experimentStore.ts";
import {repeatsOf} from "../../../../client/experiments/repeats.ts";

/** Height of every row of the grid, header included: the rows are placed at multiples of it. */
const rowHeight = 32;
const viewportHeight = 360;
const overscan = 8;

export function DisagreementsCard({summary, open}: {summary: ExperimentSummary, open: OpenExperiment}) {
    const [scrollTop, setScrollTop] = useState(0);
    const detailRow = useExperimentStore((state) => state.detailRow);
    const set = useExperimentStore((state) => state.set);
    const rows = summary.disagreements;
    const variants = summary.variants;
    const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
    const last = Math.min(rows.length, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
    const template = `64px minmax(96px, 0.6fr) 72px repeat(${variants.length}, minmax(160px, 1fr))`;
    return (
        <section className="card exp-disagreements" data-testid="exp-disagreements">
            <div className="card-title-row">
                <h3>Disagreements</h3>
                <span className="muted small" data-testid="exp-disagreement-count">{describeDisagreementCount(rows)}, the largest spread first</span>
            </div>
            {rows.length === 0 ? <div className="muted small">No row where the variants' answers or outcomes differ so far.</div> : (
                <div className="grid-viewport" style={{height: Math.min(viewportHeight, (rows.length + 1) * rowHeight + 4)}} data-testid="exp-disagreement-grid"
                    onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}>
                    <div role="table" aria-label="Rows where the variants disagree" aria-rowcount={rows.length + 1} style={{minWidth: 232 + 160 * variants.length}}>
                        <div className="grid-row grid-header" role="row" aria-rowindex={1} style={{gridTemplateColumns: template, height: rowHeight}}>
                            <span className="grid-cell muted" role="columnheader">Row</span>
                            <span className="grid-cell muted" role="columnheader" title="The question the variants answer differently; checks: the chat variants' checks">Question</span>
                            <span className="grid-cell muted exp-help" role="columnheader" title={spreadDefinition} data-testid="exp-disagreement-spread">{spreadName}</span>
                            {variants.map((variant) => <span key={variant.variant} className="grid-cell mono" role="columnheader">{variant.name}</span>)}
                        </div>
                        <div className="grid-body" style={{height: rows.length * rowHeight}} role="rowgroup">
                            {rows.slice(first, last).map((row, offset) => (
                                <DisagreementRow key={disagreementKey(row)} row={row} template={template} top={(first + offset) * rowHeight} index={first + offset}
                                    selected={detailRow === row.rowIndex} onOpen={() => set({detailRow: row.rowIndex})} />
                            ))}
                        </div>
                    </div>
                </div>
            )}
            {detailRow !== null && <RowDetail open={open} rowIndex={detailRow} onClose={() => set({detailRow: null})} />}
        </section>
    );
}

type DisagreementRowProps = {row: Disagreement, template: string, top: number, index: number, selected: boolean, onOpen: () => void};

function DisagreementRow({row, template, top, index, selected, onOpen}: DisagreementRowProps) {
    const question = row.question ?? "checks";
    return (
        <div className={`grid-row exp-disagreement${selected ? " is-selected" : ""}`} role="row" aria-rowindex={index + 2} data-testid="exp-disagreement"
            data-row={row.rowIndex} data-question={question} style={{gridTemplateColumns: template, height: rowHeight, transform: `translateY(${top}px)`}}>
            <span className="grid-cell" role="cell">
                <button type="button" className="link-btn mono" onClick={onOpen} data-testid="exp-open-row" aria-label={`Open row ${row.rowIndex + 1}`}>{row.rowIndex + 1}</button>
            </span>
            <span className="grid-cell mono" role="cell" title={question}>{question}</span>
            <span className="grid-cell mono" role="cell" data-testid="exp-disagreement-size">{formatMetric(row.size)}</span>
            {row.cells.map((cell) => (
                <span key={cell.variant} role="cell" title={cell.summary}
                    className={`grid-cell${cell.correct === true ? " is-right" : cell.correct === false ? " is-wrong" : ""}`}>
                    {cell.correct === true ? "✓ " : cell.correct === false ? "✗ " : ""}{cell.summary}
                </span>
            ))}
        </div>
    );
}

function json(value: unknown): string {
    return JSON.stringify(value, null, 2);
}

/** One row: its values, then each variant's request exactly as sent, its response and its checks. */
export function RowDetail({open, rowIndex, onClose}: {open: OpenExperiment, rowIndex: number, onClose: () => void}) {
    const row = open.dataset.rows[rowIndex] ?? [];
    const variants = open.spec.variants;
    const repeats = repeatsOf(open.spec);
    // Each variant's answers to the row: one, or with repeats each asking in turn.
    const cells: Array<Array<CellResult | undefined>> = variants.map((_variant, index) =>
        Array.from({length: repeats}, (_unused, repeat) => open.cells.get(cellKey(rowIndex, index, variants.length, repeat, repeats))));
    return (
        <div className="exp-detail" data-testid="exp-row-detail" role="region" aria-label={`Row ${rowIndex + 1}`}>
            <div className="card-title-row">
                <h4>Row {rowIndex + 1}</h4>
                <button type="button" className="icon-btn push-right" aria-label="Close the row" onClick={onClose}><Icon name="close" /></button>
            </div>
            <dl className="exp-row-values">
                {open.dataset.columns.map((column, index) => (
                    <div key={column}><dt className="mono">{column}{open.dataset.labelColumns.includes(column) ? " (label)" : ""}</dt><dd>{String(row[index] ?? "")}</dd></div>
                ))}
            </dl>
            <div className="exp-detail-variants">
                {variants.map((variant, index) => (
                    <div key={variant.name} className="exp-detail-variant" data-testid="exp-detail-variant" data-name={variant.name}>
                        <h5 className="mono">{variant.name} <span className="muted small">{variant.version.itemName} v{variant.version.version}</span></h5>
                        {repeats > 1 && <div className="muted small" data-testid="exp-detail-repeats">{repeatsPassed(cells[index])}</div>}
                        {cells[index].map((cell, repeat) => (
                            <div key={repeat} className={repeats > 1 ? "exp-detail-repeat" : undefined} data-testid={repeats > 1 ? "exp-detail-repeat" : undefined}>
                                {repeats > 1 && <div className="card-label">Repeat {repeat + 1} of {repeats}</div>}
                                <CellDetail variant={variant} cell={cell} />
                            </div>
                        ))}
                    </div>
                ))}
            </div>
        </div>
    );
}

/** "2 of 3 answers passed every check": a row's repeats of one variant, in a line. */
function repeatsPassed(cells: ReadonlyArray<CellResult | undefined>): string {
    const answered = cells.filter((cell): cell is CellResult => cell !== undefined);
    const passed = answered.filter((cell) => cell.ok && (cell.checks ?? []).every((check) => check.pass)).length;
    return `${passed} of ${cells.length} answers passed every check${answered.length < cells.length ? ` (${cells.length - answered.length} not sent yet)` : ""}`;
}

/** One answer: how it went, its reply and checks or decision answers, and the request and response as sent. */
function CellDetail({variant, cell}: {variant: Variant, cell: CellResult | undefined}) {
    return cell === undefined ? <div className="muted small">Not sent yet.</div> : <>
                                <div className="muted small">{cell.ok ? "answered" : "failed"} in {formatLatency(cell.latencyMs)}, {cell.attempts} attempt{cell.attempts === 1 ? "" : "s"}</div>
                                {cell.error && <div className="field-error">{cell.error.code}: {cell.error.message}</div>}
                                {cell.reply !== undefined && <><div className="card-label">Reply</div><pre className="small-code" data-testid="exp-detail-reply">{cell.reply}</pre></>}
                                {cell.checks && cell.checks.length > 0 && (
                                    <ul className="exp-detail-checks" data-testid="exp-detail-checks">
                                        {cell.checks.map((check) => (
                                            <li key={check.name} className={check.pass ? "is-right" : "is-wrong"}>
                                                {check.pass ? "✓" : "✗"} <span className="mono">{check.name}</span> {formatMetric(check.score)}{check.detail ? ` · ${check.detail}` : ""}
                                            </li>
                                        ))}
                                    </ul>
                                )}
                                {cell.ok && <DecisionAnswers variant={variant} response={cell.response} />}
                                <details><summary>Request</summary><pre className="small-code" data-testid="exp-detail-request">{json(cell.request)}</pre></details>
                                <details><summary>Response</summary><pre className="small-code" data-testid="exp-detail-response">{json(cell.response ?? null)}</pre></details>
                            </>;
}

/** A decision variant's answers per question: the option picked and its probability (the raw JSON stays under Response). */
function DecisionAnswers({variant, response}: {variant: Variant, response: unknown}) {
    const prompt = variant.version.prompt;
    if (prompt.kind !== "decision") return null;
    const lines = answerLines(prompt, response);
    if (lines === null) return <div className="muted small">The response does not fit the question set: see Response.</div>;
    return (
        <table className="table compact exp-detail-answers" data-testid="exp-detail-answers">
            <thead><tr><th scope="col">Question</th><th scope="col">Picked</th><th scope="col" className="num">Probability</th></tr></thead>
            <tbody>
                {lines.map((line) => (
                    <tr key={line.question} data-testid="exp-detail-answer" data-question={line.question}>
                        <th scope="row" className="mono">{line.question}</th>
                        <td>{line.picked}{line.expected === undefined ? "" : <span className="muted"> · expected {line.expected.toFixed(2)}</span>}</td>
                        <td className="num mono">{formatMetric(line.probability)}</td>
                    </tr>
                ))}
            </tbody>
        </table>
    );
}
