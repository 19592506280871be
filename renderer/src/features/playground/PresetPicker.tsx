// The preset picker above a playground's parameters: load a preset (this playground's, or another's where the request
// can say the same), or save the playground's whole request as one.
import {useState} from "react";
import type {PlaygroundKind} from "./params.ts";
import {loadPreset, saveCurrentAsPreset, usePresetsStore} from "./presetStore.ts";
import {describePreset, playgroundNames, presetFor} from "./presets.ts";

const saveHelp: Record<PlaygroundKind, string> = {
    chat: "Save keeps the system prompt, messages, tools, tool_choice, response_format and parameters.",
    responses: "Save keeps the instructions, the input and the parameters.",
    completions: "Save keeps the prompt and the parameters."
};

export function PresetPicker({kind}: {kind: PlaygroundKind}) {
    const presets = usePresetsStore((state) => state.presets);
    const [name, setName] = useState("");
    const [message, setMessage] = useState<{ok: boolean, text: string} | null>(null);
    const own = presets.filter((preset) => preset.kind === kind);
    const others = presets.filter((preset) => preset.kind !== kind).map((preset) => ({preset, use: presetFor(kind, preset)}));
    const usable = others.filter(({use}) => !("unusable" in use));
    const unusable = others.flatMap(({preset, use}) => "unusable" in use ? [{preset, reason: use.unusable}] : []);
    const replacing = own.some((preset) => preset.name === name.trim());
    const placeholder = own.length + usable.length > 0 ? "Load preset…"
        : presets.length > 0 ? `No presets for ${playgroundNames[kind]} yet` : "No presets yet";
    return (
        <div className="preset-picker">
            <select className="input" value="" aria-label="Load preset" data-testid="preset-load"
                onChange={(event) => {
                    const preset = presets.find((item) => item.id === event.target.value);
                    if (preset) setMessage(loadPreset(kind, preset));
                }}>
                <option value="">{placeholder}</option>
                {own.length > 0 && (
                    <optgroup label={`${playgroundNames[kind]} presets`}>
                        {own.map((preset) => <option key={preset.id} value={preset.id} title={describePreset(preset)}>{preset.name}</option>)}
                    </optgroup>
                )}
                {usable.length > 0 && (
                    <optgroup label="From other playgrounds">
                        {usable.map(({preset}) => (
                            <option key={preset.id} value={preset.id} title={describePreset(preset)}>{`${preset.name} · from ${playgroundNames[preset.kind]}`}</option>
                        ))}
                    </optgroup>
                )}
                {unusable.length > 0 && (
                    <optgroup label="Other playgrounds: cannot load here">
                        {unusable.map(({preset, reason}) => (
                            <option key={preset.id} value={preset.id} disabled>{`${preset.name} · ${playgroundNames[preset.kind]}: ${reason}`}</option>
                        ))}
                    </optgroup>
                )}
            </select>
            <form className="preset-save" onSubmit={(event) => {
                event.preventDefault();
                if (!name.trim()) return;
                const saved = saveCurrentAsPreset(kind, name.trim());
                setMessage(saved);
                if (saved.ok) setName("");
            }}>
                <input className="input" placeholder="Preset name" value={name} onChange={(event) => setName(event.target.value)} aria-label="Preset name" data-testid="preset-name" />
                <button type="submit" className="btn btn-sm" disabled={!name.trim()} data-testid="preset-save"
                    title={replacing ? `Replaces the ${playgroundNames[kind]} preset of this name` : undefined}>{replacing ? "Replace" : "Save"}</button>
            </form>
            <div className="param-help">{saveHelp[kind]}</div>
            {message && <div className={message.ok ? "field-ok" : "field-error"} role="status" data-testid="preset-message">{message.text}</div>}
        </div>
    );
}
