import {useRef, useState} from "react";
import {downloadFile} from "../../ui/browser.ts";
import {useNavStore} from "../../ui/appState.ts";
import {parsePresetFile, toPresetFile} from "./presetFile.ts";
import {loadPreset, usePresetsStore} from "../playground/presetStore.ts";
import {describePreset, playgroundNames, type Preset} from "../playground/presets.ts";
import {Icon} from "../../ui/controls.tsx";

type Message = {ok: boolean, text: string, undo?: Preset};

/** Saved presets: what each holds, open one in its playground, delete (with undo), export to a JSON file, import from one. */
export function PresetsScreen() {
    const presets = usePresetsStore((state) => state.presets);
    const {remove, merge, save} = usePresetsStore.getState();
    const input = useRef<HTMLInputElement>(null);
    const [message, setMessage] = useState<Message | null>(null);
    return (
        <div className="page" data-testid="presets-screen">
            <section className="card">
                <div className="card-title-row">
                    <h3>Presets</h3>
                    <div className="push-right row-gap">
                        <button type="button" className="btn btn-sm" onClick={() => input.current?.click()}>Import JSON…</button>
                        <button type="button" className="btn btn-primary btn-sm" disabled={presets.length === 0} data-testid="presets-export"
                            onClick={() => downloadFile("svc-studio-presets.json", toPresetFile(presets))}>Export JSON</button>
                    </div>
                    <input ref={input} type="file" accept="application/json,.json" hidden data-testid="presets-import" onChange={async (event) => {
                        const file = event.target.files?.[0];
                        event.target.value = "";
                        if (!file) return;
                        try {
                            const imported = parsePresetFile(await file.text());
                            merge(imported);
                            setMessage({ok: true, text: `Imported ${imported.length} preset${imported.length === 1 ? "" : "s"} from ${file.name}.`});
                        } catch (error) {
                            setMessage({ok: false, text: `${file.name}: ${(error as Error).message}`});
                        }
                    }} />
                </div>
                <p className="muted small">
                    Save a preset from any playground's Parameters panel: it keeps the whole request (prompt, messages or input, tools, format and
                    parameters). Chat and Responses presets also load in the other playground when the request says the same there.
                    Exported files can be shared with your team. Presets are quick settings; experiments run saved versions (Versions screen).
                </p>
                {message && (
                    <div className={message.ok ? "field-ok" : "field-error"} role="status" data-testid="presets-message">
                        {message.text}
                        {message.undo && <> <button type="button" className="link-btn" data-testid="presets-undo" onClick={() => {
                            save(message.undo!);
                            setMessage({ok: true, text: `Restored "${message.undo!.name}".`});
                        }}>Undo</button></>}
                    </div>
                )}
                {presets.length === 0
                    ? <div className="empty-state">No presets yet.</div>
                    : (
                        <table className="table" data-testid="presets-table">
                            <thead><tr><th>Name</th><th>Playground</th><th>Holds</th><th>Parameters</th><th /></tr></thead>
                            <tbody>
                                {presets.map((preset) => (
                                    <tr key={preset.id} data-testid="preset-row">
                                        <td className="strong">{preset.name}</td>
                                        <td><span className={`badge kind-${preset.kind}`}>{playgroundNames[preset.kind]}</span></td>
                                        <td className="small" data-testid="preset-holds">{describePreset(preset)}</td>
                                        <td className="mono small">{Object.entries(preset.params).filter(([, value]) => value !== undefined)
                                            .map(([key, value]) => `${key}=${JSON.stringify(value)}`).join("  ")}</td>
                                        <td>
                                            <div className="row-gap">
                                                <button type="button" className="btn btn-sm" aria-label={`Open preset ${preset.name}`} onClick={() => {
                                                    const loaded = loadPreset(preset.kind, preset);
                                                    if (loaded.ok) useNavStore.getState().go(preset.kind);
                                                    else setMessage(loaded);
                                                }}>Open</button>
                                                <button type="button" className="icon-btn danger" aria-label={`Delete preset ${preset.name}`} onClick={() => {
                                                    remove(preset.id);
                                                    setMessage({ok: true, text: `Deleted "${preset.name}".`, undo: preset});
                                                }}><Icon name="close" /></button>
                                            </div>
                                        </td>
                                    </tr>
                                ))}
                            </tbody>
                        </table>
                    )}
            </section>
        </div>
    );
}
