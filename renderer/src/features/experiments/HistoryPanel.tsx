// Kept experiments: open one, run it again with its versions' latest, compare two side by side, delete (asked first).
import {useEffect, useRef, useState} from "react";
import {formatCount} from "../../../../client/experiments/metricDefinitions.ts";
import {deleteExperiment, importExperimentFile, openExperiment, refreshSavedExperiments} from "./experimentRun.ts";
import {useExperimentStore, type SavedExperimentInfo} from "./experimentStore.ts";
import {runAgain} from "./runAgain.ts";
import {CompareExperiments} from "./CompareExperiments.tsx";
import {isPromptfooPick, promptfooExperiment} from "./promptfooFiles.ts";
import {openOpenAiFiles} from "./openAiOpening.ts";

/** Opens the picked file: an experiment or results file, a promptfoo config with the files it names, or OpenAI's files. */
async function openPicked(files: File[]): Promise<{ok: boolean, text: string}> {
    if (!isPromptfooPick(files)) return await openOpenAiFiles(files) ?? importExperimentFile(files[0].name, await files[0].text());
    const imported = await promptfooExperiment(files, Date.now());
    if ("error" in imported) return {ok: false, text: imported.error};
    const opened = await importExperimentFile(files.find((file) => /\.ya?ml$/i.test(file.name))!.name, imported.text);
    const shown = imported.lines.slice(0, 3).join("; ");
    return imported.lines.length === 0 ? opened : {...opened, text: `${opened.text} From the config: ${shown}${imported.lines.length > 3 ? `; and ${imported.lines.length - 3} more` : ""}.`};
}

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
                        title="An experiment file (the app's export), the results svc-studio eval wrote with --results, a promptfoo config (promptfooconfig.yaml, picked with the files it names), or an OpenAI eval (eval.json picked with its runs, its items JSONL and output items): kept here and shown as if the app had run it. An OpenAI prompt file is saved with its versions">Open a file…</button>
                    <input ref={fileInput} type="file" hidden multiple accept="application/json,.json,.yaml,.yml,.csv,.tsv,.jsonl,.txt,.md" data-testid="exp-import-input" onChange={(event) => {
                        const files = [...event.target.files ?? []];
                        event.target.value = "";
                        if (files.length > 0) void openPicked(files).then((importMessage) => useExperimentStore.getState().set({importMessage}));
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
