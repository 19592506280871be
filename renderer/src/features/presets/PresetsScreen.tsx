import {useRef, useState} from "react";
import {downloadFile} from "../../ui/browser.ts";
import {parsePresetFile, toPresetFile} from "./presetFile.ts";
import {usePresetsStore} from "../playground/stores.ts";
import {Icon} from "../../ui/controls.tsx";

/** Saved parameter sets: see, delete, export to a JSON file, import from one. */
export function PresetsScreen() {
    const presets = usePresetsStore((state) => state.presets);
    const {remove, merge} = usePresetsStore.getState();
    const input = useRef<HTMLInputElement>(null);
    const [message, setMessage] = useState<{ok: boolean, text: string} | null>(null);
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
                <p className="muted small">Save a parameter set from any playground's Parameters panel; load it there again. Exported files can be shared with your team.</p>
                {message && <div className={message.ok ? "field-ok" : "field-error"} role="status" data-testid="presets-message">{message.text}</div>}
                {presets.length === 0
                    ? <div className="empty-state">No presets yet.</div>
                    : (
                        <table className="table" data-testid="presets-table">
                            <thead><tr><th>Name</th><th>Playground</th><th>Parameters</th><th /></tr></thead>
                            <tbody>
                                {presets.map((preset) => (
                                    <tr key={preset.id}>
                                        <td className="strong">{preset.name}</td>
                                        <td><span className={`badge kind-${preset.kind}`}>{preset.kind}</span></td>
                                        <td className="mono small">{Object.entries(preset.params).filter(([, value]) => value !== undefined)
                                            .map(([key, value]) => `${key}=${JSON.stringify(value)}`).join("  ")}</td>
                                        <td><button type="button" className="icon-btn danger" aria-label={`Delete preset ${preset.name}`} onClick={() => remove(preset.id)}><Icon name="close" /></button></td>
                                    </tr>
                                ))}
                            </tbody>
                        </table>
                    )}
            </section>
        </div>
    );
}
