// The compare tab: two sides (question set and connection each), variant B's JSON, and the answers side by side.
import {useDeferredValue, useMemo, useRef, useEffect} from "react";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {JsonEditor} from "../../ui/JsonEditor.tsx";
import {Icon} from "../../ui/controls.tsx";
import {formatQuestionSetFile} from "../questionSet/draft.ts";
import {questionSetTextError, useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {compareAnswers} from "../questionSet/requests.ts";
import {AnswerCard, RunMeta} from "./RunPanel.tsx";
import {runCompare, stopCompare} from "./run.ts";
import {useCompareStore, type CompareSide, type DecisionRunResult} from "./studioState.ts";

/** Two variants of a question set, or two connections, asked about the builder's current input side by side. */
export function ComparePanel() {
    const running = useCompareStore((state) => state.running);
    const results = useCompareStore((state) => state.results);
    return (
        <div className="compare-panel" data-testid="compare-panel">
            <section className="card">
                <div className="card-title-row">
                    <h3>Compare</h3>
                    <span className="muted small">Both sides get the input of the Build tab (text, JSON state or table row, and its images).</span>
                </div>
                <div className="compare-configs">
                    <CompareSideConfig which="a" />
                    <CompareSideConfig which="b" />
                </div>
                <div className="run-bar">
                    {running
                        ? <button type="button" className="btn btn-danger" onClick={stopCompare}><Icon name="stop" /> Stop</button>
                        : <button type="button" className="btn btn-primary" data-testid="compare-run" onClick={() => void runCompare()}><Icon name="play" /> Run both</button>}
                    {running && <span className="status-badge status-running">running</span>}
                </div>
            </section>
            <VariantEditor />
            {results && <CompareResults a={results.a} b={results.b} />}
        </div>
    );
}

type CompareSideConfigProps = {which: "a" | "b"};

/** What one side of a comparison asks (the current set or variant B) and where (local engine or the active remote). */
export function CompareSideConfig({which}: CompareSideConfigProps) {
    const side = useCompareStore((state) => state[which]);
    const set = useCompareStore((state) => state.set);
    const {data: gateway} = useGatewayState();
    const active = activeConnection(gateway);
    const change = (patch: Partial<CompareSide>) => set({[which]: {...side, ...patch}});
    return (
        <div className="compare-side-config" data-testid={`compare-config-${which}`}>
            <span className="compare-side-letter">{which.toUpperCase()}</span>
            <select className="input input-sm" value={side.set} aria-label={`Question set of side ${which.toUpperCase()}`} data-testid={`compare-set-${which}`}
                onChange={(event) => change({set: event.target.value as CompareSide["set"]})}>
                <option value="current">Current set (builder)</option>
                <option value="variant">Variant B</option>
            </select>
            <select className="input input-sm" value={side.connection} aria-label={`Connection of side ${which.toUpperCase()}`} data-testid={`compare-connection-${which}`}
                onChange={(event) => change({connection: event.target.value as CompareSide["connection"]})}>
                <option value="local">Local engine</option>
                <option value="remote" disabled={active.kind !== "remote"}>{active.kind === "remote" ? `${active.name} (remote)` : "Remote (activate one first)"}</option>
            </select>
        </div>
    );
}

/** Variant B of the question set, as JSON: a copy of the builder's set to change, or a file. */
export function VariantEditor() {
    const text = useCompareStore((state) => state.variantText);
    const set = useCompareStore((state) => state.set);
    const input = useRef<HTMLInputElement>(null);
    const deferred = useDeferredValue(text);
    const error = useMemo(() => deferred.trim() === "" ? null : questionSetTextError(deferred, null), [deferred]);
    return (
        <section className="card variant-editor" data-testid="variant-editor">
            <div className="card-title-row">
                <h3>Variant B</h3>
                <div className="push-right row-gap">
                    <button type="button" className="btn btn-sm" data-testid="variant-copy"
                        onClick={() => set({variantText: formatQuestionSetFile(useQuestionSetStore.getState().draft)})}>Copy current set</button>
                    <button type="button" className="btn btn-sm" onClick={() => input.current?.click()}>Open…</button>
                    <input ref={input} type="file" accept="application/json,.json" hidden data-testid="variant-open-input" onChange={async (event) => {
                        const file = event.target.files?.[0];
                        event.target.value = "";
                        if (file) set({variantText: await file.text()});
                    }} />
                </div>
            </div>
            <JsonEditor path="inmemory://svc/question-set-b.json" value={text} onChange={(value) => set({variantText: value})} error={error} height={260}
                label="Variant B JSON" testId="variant-json" />
        </section>
    );
}

type CompareResultsProps = {a: DecisionRunResult, b: DecisionRunResult};

/** Both runs side by side, question by question (paired by name), with how far apart the answers are. */
export function CompareResults({a, b}: CompareResultsProps) {
    const rows = compareAnswers(a.views ?? [], b.views ?? []);
    const panel = useRef<HTMLDivElement>(null);
    // A block body: newer browsers return a promise from scrollIntoView, which React would take for a cleanup.
    useEffect(() => {
        panel.current?.scrollIntoView({block: "start", behavior: "smooth"});
    }, [a, b]);
    return (
        <div className="compare-results" data-testid="compare-results" ref={panel}>
            <div className="compare-columns">
                {[a, b].map((result, index) => (
                    <div key={index} className="compare-column" data-testid={`compare-result-${index === 0 ? "a" : "b"}`} data-status={result.status}>
                        <div className="compare-row-head"><span className="compare-side-letter">{index === 0 ? "A" : "B"}</span><span className="muted small">{result.format === "decisions" ? "/v1/decisions" : "/v1/systemone"}</span></div>
                        {result.error && <ApiErrorView error={result.error} />}
                        {result.status !== "error" && <RunMeta result={result} />}
                    </div>
                ))}
            </div>
            {rows.map((row) => (
                <div key={row.name} className="compare-row" data-testid="compare-row">
                    <div className="compare-row-head">
                        <span className="strong mono">{row.name}</span>
                        {row.samePick !== null && <span className={`badge ${row.samePick ? "badge-ok" : "badge-warn"}`} data-testid="compare-same-pick">{row.samePick ? "same pick" : "different pick"}</span>}
                        {row.maxDifference !== null && <span className="badge" data-testid="compare-max-diff">max |Δp| {row.maxDifference.toFixed(2)}</span>}
                        {row.delta !== null && <span className="badge">Δ {row.delta >= 0 ? "+" : ""}{row.delta.toFixed(2)}</span>}
                    </div>
                    <div className="compare-columns">
                        {row.a ? <AnswerCard view={row.a} format={a.format} /> : <div className="empty-state small">Not in A</div>}
                        {row.b ? <AnswerCard view={row.b} format={b.format} /> : <div className="empty-state small">Not in B</div>}
                    </div>
                </div>
            ))}
        </div>
    );
}
