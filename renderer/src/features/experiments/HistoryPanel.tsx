// Kept experiments: open one, run it again with its versions' latest, compare two side by side, delete (asked first).
import {useEffect, useRef, useState} from "react";
import {formatCount} from "../../../../client/experiments/metricDefinitions.ts";
import {deleteExperiment, importExperimentFile, openExperiment, refreshSavedExperiments} from "./experimentRun.ts";
import {useExperimentStore, type SavedExperimentInfo} from "./experimentStore.ts";
import {runAgain} from "./runAgain.ts";
import {CompareExperiments} from "./CompareExperiments.tsx";

export function HistoryPanel() {
    const saved = useExperimentStore((state) => state.saved);
    const openId = useExperimentStore((state) => state.open?.id ?? null);
    const busy = useExperimentStore((state) => state.busy);
    const [compare, setCompare] = useState<string[]>([]);
    const [confirm, setConfirm] = useState<string | null>(null);
    const fileInput = useRef<HTMLInputElement>(null);
    useEffect(() => {
        void refreshSavedExperiments();
    }, []);
    const toggle = (id: string) => setCompare((current) => current.includes(id) ? current.filter((item) => item !== id) : [...current, id].slice(-2));
    return (
        <div className="exp-history" data-testid="exp-history">
            <section className="card">
                <div className="card-title-row">
                    <h3>Kept experiments</h3>
                    <span className="muted small">Tick two to compare their summaries.</span>
                    <button type="button" className="btn btn-sm push-right" disabled={busy} data-testid="exp-import" onClick={() => fileInput.current?.click()}
                        title="An experiment file (the app's export), or the results svc-studio eval wrote with --results: kept here and shown as if the app had run it">Open a file…</button>
                    <input ref={fileInput} type="file" hidden accept="application/json,.json" data-testid="exp-import-input" onChange={(event) => {
                        const file = event.target.files?.[0];
                        event.target.value = "";
                        if (file !== undefined) void file.text().then((text) => importExperimentFile(file.name, text))
                            .then((importMessage) => useExperimentStore.getState().set({importMessage}));
                    }} />
                </div>
                {saved.length === 0 ? <div className="empty-state">No experiment yet: set one up and run it.</div> : (
                    <div className="table-scroll">
                        <table className="table compact">
                            <thead>
                                <tr><th scope="col"><span className="sr-only">Compare</span></th><th scope="col">Experiment</th>
                                    <th scope="col">Status</th><th scope="col" className="num">Cells</th><th scope="col">Started</th><th scope="col"><span className="sr-only">Actions</span></th></tr>
                            </thead>
                            <tbody>
                                {saved.map((info) => (
                                    <tr key={info.id} className={info.id === openId ? "is-open" : ""} data-testid="exp-saved" data-id={info.id}>
                                        <td><input type="checkbox" checked={compare.includes(info.id)} aria-label={`Compare ${info.name}`} data-testid="exp-compare-pick" onChange={() => toggle(info.id)} /></td>
                                        <td className="exp-saved-name">{info.name}<div className="muted small">{info.datasetName} · {info.variants.join(" vs ")}</div></td>
                                        <td><span className={`badge status-${info.status}`}>{info.status}</span></td>
                                        <td className="num mono">{formatCount(info.done)} / {formatCount(info.total)}</td>
                                        <td className="small exp-saved-date">{new Date(info.createdAt).toLocaleString(undefined, {dateStyle: "short", timeStyle: "short"})}</td>
                                        <td><SavedActions info={info} busy={busy} confirming={confirm === info.id} onConfirm={setConfirm} /></td>
                                    </tr>
                                ))}
                            </tbody>
                        </table>
                    </div>
                )}
            </section>
            {compare.length === 2 && <CompareExperiments ids={compare as [string, string]} />}
        </div>
    );
}

type SavedActionsProps = {info: SavedExperimentInfo, busy: boolean, confirming: boolean, onConfirm: (id: string | null) => void};

function SavedActions({info, busy, confirming, onConfirm}: SavedActionsProps) {
    if (confirming) return (
        <span className="exp-saved-actions">
            <span className="small">Delete it and its cells?</span>
            <button type="button" className="btn btn-sm btn-danger" data-testid="exp-delete-confirm" onClick={() => {
                onConfirm(null);
                void deleteExperiment(info.id);
            }}>Delete</button>
            <button type="button" className="btn btn-sm" onClick={() => onConfirm(null)}>Keep</button>
        </span>
    );
    return (
        <span className="exp-saved-actions">
            <button type="button" className="btn btn-sm" disabled={busy} data-testid="exp-open" onClick={() => void openExperiment(info.id)}>Open</button>
            <button type="button" className="btn btn-sm" disabled={busy} data-testid="exp-run-again" title="A new experiment: the same setup with each variant's latest version"
                onClick={() => void runAgain(info.id)}>Run again</button>
            <button type="button" className="btn btn-sm btn-ghost" disabled={busy} aria-label={`Delete ${info.name}`} onClick={() => onConfirm(info.id)}>Delete</button>
        </span>
    );
}
