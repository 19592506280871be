// The compare tab: two sides (question set and connection each), variant B's editor, and the answers side by side.
import {useDeferredValue, useMemo, useRef, useEffect, useState} from "react";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {JsonEditor} from "../../ui/JsonEditor.tsx";
import {Icon} from "../../ui/controls.tsx";
import type {DraftSet} from "../questionSet/draft.ts";
import {draftFromQuestionSet} from "../questionSet/draftFromQuestionSet.ts";
import {documentFromText, documentOf, documentProblem, emptyDraft, useQuestionSetStore, type DraftDocument} from "../questionSet/questionSetStore.ts";
import {compareAnswers} from "../questionSet/requests.ts";
import {QuestionList} from "./QuestionList.tsx";
import {SetBasics} from "./QuestionSetHeader.tsx";
import {RawExchange} from "./RawExchange.tsx";
import {AnswerCard, RunMeta} from "./RunPanel.tsx";
import {runCompare, stopCompare} from "./run.ts";
import {openCompareAsExperiment} from "./compareExperiment.ts";
import {useCompareStore, type CompareSide, type DecisionRunResult, type VariantView} from "./studioState.ts";

/** Two variants of a question set, or two connections, asked about the builder's current input side by side. */
export function ComparePanel() {
    const running = useCompareStore((state) => state.running);
    const results = useCompareStore((state) => state.results);
    const [experimentNote, setExperimentNote] = useState<string | null>(null);
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
                        : <button type="button" className="btn btn-primary" data-testid="compare-run" title="Ctrl+Enter" onClick={() => void runCompare()}><Icon name="play" /> Run both</button>}
                    {running && <span className="status-badge status-running">running</span>}
                    <button type="button" className="btn" data-testid="compare-open-experiment" disabled={running}
                        title="Both sides over a one-row dataset holding this input, on the Experiments screen: kept, run again, exported"
                        onClick={() => void openCompareAsExperiment().then((opened) => setExperimentNote(opened.ok ? null : opened.text))}>Open as experiment</button>
                    {experimentNote && <span className="field-error" role="alert" data-testid="compare-experiment-note">{experimentNote}</span>}
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
    const letter = which.toUpperCase();
    return (
        <fieldset className="compare-side-config" data-testid={`compare-config-${which}`}>
            <legend className="compare-side-letter" aria-label={`Side ${letter}`}>{letter}</legend>
            <label className="compare-field">
                <span className="muted small">Question set</span>
                <select className="input input-sm" value={side.set} data-testid={`compare-set-${which}`} onChange={(event) => change({set: event.target.value as CompareSide["set"]})}>
                    <option value="current">Current set (builder)</option>
                    <option value="variant">Variant B</option>
                </select>
            </label>
            <label className="compare-field">
                <span className="muted small">Connection</span>
                <select className="input input-sm" value={side.connection} data-testid={`compare-connection-${which}`}
                    onChange={(event) => change({connection: event.target.value as CompareSide["connection"]})}>
                    <option value="local">Local engine</option>
                    <option value="remote" disabled={active.kind !== "remote"}>{active.kind === "remote" ? `${active.name} (remote)` : "Remote (activate one first)"}</option>
                </select>
            </label>
        </fieldset>
    );
}

const variantViews: Array<{id: VariantView, label: string}> = [{id: "form", label: "Form"}, {id: "json", label: "JSON"}];

/**
 * Variant B of the question set: a copy of the builder's set, a file, or a new set; edited with the builder's own form
 * or as its JSON file. Replacing it can be undone.
 */
export function VariantEditor() {
    const variant = useCompareStore((state) => state.variant);
    const view = useCompareStore((state) => state.variantView);
    const set = useCompareStore((state) => state.set);
    const input = useRef<HTMLInputElement>(null);
    const [replaced, setReplaced] = useState<{text: string, previous: DraftDocument | null} | null>(null);
    const [openError, setOpenError] = useState<string | null>(null);
    const replace = (next: DraftDocument, text: string) => {
        setReplaced({text, previous: useCompareStore.getState().variant});
        setOpenError(null);
        set({variant: next});
    };
    const update = (change: (draft: DraftSet) => DraftSet) => {
        const current = useCompareStore.getState().variant;
        if (current !== null) set({variant: documentOf(change(current.draft))});
    };
    return (
        <section className="card variant-editor" data-testid="variant-editor">
            <div className="card-title-row variant-title">
                <h3>Variant B</h3>
                {variant !== null && (
                    <div className="segmented" role="radiogroup" aria-label="Edit variant B as">
                        {variantViews.map((item) => (
                            <button key={item.id} type="button" role="radio" aria-checked={view === item.id} className={view === item.id ? "active" : ""}
                                data-testid={`variant-view-${item.id}`} onClick={() => set({variantView: item.id})}>{item.label}</button>
                        ))}
                    </div>
                )}
                <div className="push-right row-gap">
                    <button type="button" className="btn btn-sm" data-testid="variant-copy"
                        onClick={() => replace(documentOf(useQuestionSetStore.getState().draft), "Copied the current set into variant B.")}>Copy current set</button>
                    <button type="button" className="btn btn-sm" data-testid="variant-new"
                        onClick={() => replace(documentOf({...emptyDraft(), name: "Variant B"}), "Started a new variant B.")}>New</button>
                    <button type="button" className="btn btn-sm" onClick={() => input.current?.click()}>Open…</button>
                    <input ref={input} type="file" accept="application/json,.json" hidden data-testid="variant-open-input" onChange={async (event) => {
                        const file = event.target.files?.[0];
                        event.target.value = "";
                        if (!file) return;
                        try {
                            replace(documentOf(draftFromQuestionSet(JSON.parse(await file.text()))), `Opened ${file.name} as variant B.`);
                        } catch (error) {
                            setOpenError(`${file.name}: ${(error as Error).message}`);
                        }
                    }} />
                </div>
            </div>
            {openError && <div className="field-error" role="alert">{openError}</div>}
            {replaced && (
                <div className="field-ok" role="status" data-testid="variant-message">
                    {replaced.text}{" "}
                    <button type="button" className="link-btn" data-testid="variant-undo" onClick={() => {
                        set({variant: replaced.previous});
                        setReplaced(null);
                    }}>Undo</button>
                </div>
            )}
            {variant === null && <div className="empty-state small">Variant B is empty: copy the current set to change it, start a new set, or open a file.</div>}
            {variant !== null && view === "form" && (
                <div className="variant-form" data-testid="variant-form">
                    {variant.jsonError !== null && <div className="field-error" role="alert">The JSON cannot be read ({variant.jsonError}): the form shows the set before that edit.</div>}
                    <SetBasics draft={variant.draft} update={update} testId="variant" />
                    <QuestionList draft={variant.draft} update={update} />
                </div>
            )}
            {variant !== null && view === "json" && <VariantJson variant={variant} />}
        </section>
    );
}

/** Variant B as its JSON file, editable; the form follows as soon as the text can be read. */
function VariantJson({variant}: {variant: DraftDocument}) {
    const set = useCompareStore((state) => state.set);
    const deferred = useDeferredValue(variant);
    const error = useMemo(() => documentProblem(deferred), [deferred]);
    return (
        <JsonEditor path="inmemory://svc/question-set-b.json" value={variant.jsonText} error={error} height={320} label="Variant B JSON" testId="variant-json"
            onChange={(text) => set({variant: documentFromText(text, useCompareStore.getState().variant?.draft ?? variant.draft)})} />
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
                {[a, b].map((result, index) => {
                    const side = index === 0 ? "a" : "b";
                    return (
                        <div key={side} className="compare-column" data-testid={`compare-result-${side}`} data-status={result.status}>
                            <div className="compare-row-head"><span className="compare-side-letter">{side.toUpperCase()}</span><span className="muted small">{result.format === "decisions" ? "/v1/decisions" : "/v1/systemone"}</span></div>
                            {result.error && <ApiErrorView error={result.error} />}
                            {result.status !== "error" && <RunMeta result={result} />}
                            <RawExchange result={result} testId={`compare-raw-${side}`} />
                        </div>
                    );
                })}
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
