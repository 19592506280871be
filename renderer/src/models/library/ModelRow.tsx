import {useState} from "react";
import type {LibraryModel, ModelRole, ModelsState} from "../types.ts";
import {formatBytes} from "../../../../base/common/format.ts";
import {isModelInUse} from "../utils/isModelInUse.ts";
import {RoleToggles} from "./RoleToggles.tsx";

export type ModelRowActions = {
    busy: boolean,
    loadingId?: string,
    setDefault: (id: string) => void,
    setRole: (role: ModelRole, modelId: string | null) => void,
    load: (id: string) => void,
    remove: (id: string) => void
};

function Capability({on, label}: {on: boolean, label: string}) {
    return <span className={`badge ${on ? "badge-ok" : "models-off"}`} data-testid={`cap-${label.replace(/\s+/g, "-")}`} data-on={on}>{on ? "✓" : "✗"} {label}</span>;
}

/** One GGUF of the library: what its header says, the roles it serves, and what can be done with it. */
export function ModelRow({model, active, actions}: {model: LibraryModel, active: ModelsState["active"], actions: ModelRowActions}) {
    const [confirming, setConfirming] = useState(false);
    const info = model.info;
    const inUse = isModelInUse(model, active);
    const loaded = inUse && active.status === "running";
    const loading = actions.loadingId === model.id || (active.modelId === model.id && active.status === "starting");
    return (
        <tr data-testid={`model-row-${model.id}`} className={inUse ? "models-row-active" : undefined}>
            <td className="models-name-cell">
                <div className="models-file mono break" title={model.path}>{model.id}</div>
                <div className="row-gap models-name-badges">
                    {info?.name && <span className="muted small">{info.name}</span>}
                    {model.isDefault && <span className="badge badge-accent" data-testid="default-marker">default</span>}
                    {loaded && <span className="badge badge-ok" data-testid="loaded-marker">loaded</span>}
                </div>
            </td>
            {info != null ? (
                <>
                    <td className="mono" data-testid="model-architecture">{info.architecture}</td>
                    <td className="mono" data-testid="model-parameters" title={info.parameters?.toLocaleString("en-US")}>{info.parameterLabel ?? "—"}</td>
                    <td className="mono" data-testid="model-quantization">{info.quantization ?? "—"}</td>
                    <td className="mono" data-testid="model-context">{info.contextLength?.toLocaleString("en-US") ?? "—"}</td>
                    <td>
                        <div className="models-caps" title={`chat wrapper: ${info.chatWrapper}`}>
                            <Capability on={info.hasChatTemplate} label="template" />
                            <Capability on={info.canThink} label="thinks" />
                            <Capability on={info.canCallTools} label="tools" />
                        </div>
                    </td>
                </>
            ) : (
                <td colSpan={5} className="field-error" data-testid="model-error">Unreadable: {model.error ?? "the header could not be read"}</td>
            )}
            <td className="mono models-size" data-testid="model-size">{formatBytes(model.sizeBytes)}</td>
            <td><RoleToggles model={model} busy={actions.busy} onChange={actions.setRole} /></td>
            <td>
                <div className="models-actions">
                    <button type="button" className="btn btn-sm" disabled={actions.busy || model.isDefault || info == null}
                        onClick={() => actions.setDefault(model.id)} data-testid="set-default">Set default</button>
                    <button type="button" className="btn btn-sm btn-primary" disabled={actions.busy || loaded || loading || info == null}
                        onClick={() => actions.load(model.id)} data-testid="load-model">{loading ? "Loading…" : loaded ? "Loaded" : "Load"}</button>
                    {confirming ? (
                        <>
                            <button type="button" className="btn btn-sm btn-danger" disabled={actions.busy || inUse}
                                onClick={() => { setConfirming(false); actions.remove(model.id); }} data-testid="confirm-delete">Delete file</button>
                            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setConfirming(false)}>Keep</button>
                        </>
                    ) : (
                        <button type="button" className="btn btn-sm" disabled={actions.busy || inUse} onClick={() => setConfirming(true)} data-testid="delete-model"
                            title={inUse ? "The engine has this model loaded: stop the engine or load another model first" : `Delete ${model.id} from disk`}>Delete</button>
                    )}
                </div>
            </td>
        </tr>
    );
}
