import {useState} from "react";
import type {HistoryKind} from "../history/types.ts";
import type {ParamValues} from "../params/types.ts";
import {usePresetsStore} from "../state/usePresetsStore.ts";

type Props = {kind: HistoryKind, params: ParamValues, onLoad: (params: ParamValues) => void};

/** Load a saved parameter set into the panel, or save the current one under a name. */
export function PresetPicker({kind, params, onLoad}: Props) {
    const presets = usePresetsStore((state) => state.presets).filter((preset) => preset.kind === kind);
    const save = usePresetsStore((state) => state.save);
    const [name, setName] = useState("");
    return (
        <div className="preset-picker">
            <select className="input" value="" aria-label="Load preset" data-testid="preset-load"
                onChange={(event) => {
                    const preset = presets.find((item) => item.id === event.target.value);
                    if (preset) onLoad(preset.params);
                }}>
                <option value="">{presets.length ? "Load preset…" : "No presets yet"}</option>
                {presets.map((preset) => <option key={preset.id} value={preset.id}>{preset.name}</option>)}
            </select>
            <form className="preset-save" onSubmit={(event) => {
                event.preventDefault();
                if (!name.trim()) return;
                save(name.trim(), kind, params);
                setName("");
            }}>
                <input className="input" placeholder="Preset name" value={name} onChange={(event) => setName(event.target.value)} aria-label="Preset name" data-testid="preset-name" />
                <button type="submit" className="btn btn-sm" disabled={!name.trim()}>Save</button>
            </form>
        </div>
    );
}
