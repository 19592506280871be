// The library card: each installed model with its roles and actions, and unfinished downloads.
import {useState} from "react";
import {formatBytes} from "../../../../base/common/format.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {useModelsMutation, isModelInUse, libraryCount, libraryRows} from "./models.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import type {ModelRole, ModelsState, LibraryModel, DownloadJob, PartialDownload} from "./types.ts";

/** The model library: every GGUF in the folder with its metadata, roles and actions, then unfinished downloads. */
export function LibraryCard({state}: {state: ModelsState}) {
    const setDefault = useModelsMutation(gatewayApi.setDefault);
    const setRole = useModelsMutation(({role, modelId}: {role: ModelRole, modelId: string | null}) => gatewayApi.setRole(role, modelId));
    // The built-in model is not a library file: it is started by its path.
    const load = useModelsMutation((modelId: string) => gatewayApi.startEngine(modelId === state.builtIn?.id ? {modelPath: state.builtIn.path} : {modelId}));
    const remove = useModelsMutation(gatewayApi.removeModel);
    const resume = useModelsMutation((part: {url: string, fileName: string}) => gatewayApi.download({source: part.url, fileName: part.fileName}));
    const mutations = [setDefault, setRole, load, remove, resume];
    const busy = mutations.some((mutation) => mutation.isPending);
    // The last action's failure (one at a time: a new action clears the old error by resetting the others).
    const failed = mutations.find((mutation) => mutation.isError);
    const act = <A,>(mutation: {mutate: (arg: A) => void}) => (arg: A) => {
        for (const other of mutations) other.reset();
        mutation.mutate(arg);
    };
    const rows = libraryRows(state);
    const count = libraryCount(state);
    return (
        <section className="card" data-testid="models-library">
            <div className="card-title-row">
                <h3>Library</h3>
                <span className="badge" title={count.title} data-testid="library-count">{count.label}</span>
                <span className="muted small push-right" title="The library folder: .gguf files copied here appear too">
                    Folder <span className="mono break" data-testid="models-dir">{state.dir}</span>
                </span>
            </div>
            {rows.length > 0 && (
                <div className="models-table-wrap">
                    <table className="table models-table">
                        <thead>
                            <tr>
                                <th>Model</th><th title="Architecture · parameters · quantization; training context · file size">Details</th><th>Capabilities</th>
                                <th>Roles</th><th>Actions</th>
                            </tr>
                        </thead>
                        <tbody>
                            {rows.map((model) => (
                                <ModelRow key={model.id} model={model} active={state.active} actions={{
                                    busy,
                                    loadingId: load.isPending ? load.variables : undefined,
                                    setDefault: act(setDefault),
                                    setRole: (role, modelId) => act(setRole)({role, modelId}),
                                    load: act(load),
                                    remove: act(remove)
                                }} />
                            ))}
                        </tbody>
                    </table>
                </div>
            )}
            <PartialDownloads partial={state.partial} downloads={state.downloads} busy={busy} onResume={act(resume)} />
            {failed?.error != null && <ApiErrorView error={toErrorInfo(failed.error)} />}
        </section>
    );
}

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
                    {model.builtIn && <span className="badge" data-testid="built-in-marker"
                        title="Ships with Svc Studio (stories260K: children's stories, no chat template); served when the library is empty">built-in</span>}
                    {loaded && <span className="badge badge-ok" data-testid="loaded-marker">loaded</span>}
                </div>
            </td>
            {info != null ? (
                <>
                    <td className="models-details">
                        <div className="mono">
                            <span data-testid="model-architecture" title="Architecture">{info.architecture}</span>{" · "}
                            <span data-testid="model-parameters" title={`Parameters${info.parameters != null ? `: ${info.parameters.toLocaleString("en-US")}` : ""}`}>{info.parameterLabel ?? "—"}</span>{" · "}
                            <span data-testid="model-quantization" title="Quantization">{info.quantization ?? "—"}</span>
                        </div>
                        <div className="small muted">
                            context <span className="mono" data-testid="model-context" title="Training context, in tokens">{info.contextLength?.toLocaleString("en-US") ?? "—"}</span>
                            {" · "}<span className="mono models-size" data-testid="model-size" title="File size">{formatBytes(model.sizeBytes)}</span>
                        </div>
                    </td>
                    <td>
                        <div className="models-caps" title={`chat wrapper: ${info.chatWrapper}`}>
                            <Capability on={info.hasChatTemplate} label="template" />
                            <Capability on={info.canThink} label="thinks" />
                            <Capability on={info.canCallTools} label="tools" />
                            <span title={model.mmproj != null ? `vision projector: ${model.mmproj}` : "no vision projector beside it (mmproj-<name>.gguf)"}>
                                <Capability on={model.mmproj != null} label="vision" />
                            </span>
                        </div>
                    </td>
                </>
            ) : (
                <td colSpan={2}>
                    <div className="field-error" data-testid="model-error">Unreadable: {model.error ?? "the header could not be read"}</div>
                    <div className="small muted mono models-size" data-testid="model-size" title="File size">{formatBytes(model.sizeBytes)}</div>
                </td>
            )}
            <td>{model.builtIn ? <span className="muted small">when the library is empty</span>
                : <RoleToggles model={model} busy={actions.busy} onChange={actions.setRole} />}</td>
            <td>
                <div className="models-actions">
                    {!model.builtIn && <button type="button" className="btn btn-sm" disabled={actions.busy || model.isDefault || info == null}
                        onClick={() => actions.setDefault(model.id)} data-testid="set-default">Set default</button>}
                    <button type="button" className="btn btn-sm btn-primary" disabled={actions.busy || loaded || loading || info == null}
                        onClick={() => actions.load(model.id)} data-testid="load-model">{loading ? "Loading…" : loaded ? "Loaded" : "Load"}</button>
                    {model.builtIn ? null : confirming ? (
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

const roles: Array<{role: ModelRole, hint: string}> = [
    {role: "svc-1", hint: "chat, responses and completions (the default model)"},
    {role: "svc-1-reasoning", hint: "reasoning: the model thinks before answering"},
    {role: "svc-1-decision", hint: "decisions: label probabilities"}
];

/**
 * Which model ids this file serves. `svc-1` is the default model, so it can only be handed to another model
 * (never left without one); the other roles toggle on and off.
 */
export function RoleToggles({model, busy, onChange}: {model: LibraryModel, busy: boolean, onChange: (role: ModelRole, modelId: string | null) => void}) {
    const unreadable = model.info == null;
    return (
        <div className="models-roles" role="group" aria-label={`Roles of ${model.id}`}>
            {roles.map(({role, hint}) => {
                const on = model.roles.includes(role);
                const fixed = on && role === "svc-1";
                const warning = role === "svc-1-reasoning" && model.info != null && !model.info.canThink ? " (this model's chat format has no thinking segment)" : "";
                return (
                    <button key={role} type="button" className={`models-role${on ? " on" : ""}${warning ? " warn" : ""}`} aria-pressed={on}
                        disabled={busy || unreadable || fixed} data-testid={`role-${role}`}
                        title={`${on ? "Serves" : "Serve"} ${role}: ${hint}${warning}${fixed ? "; give svc-1 to another model to change it" : ""}`}
                        onClick={() => onChange(role, on ? null : model.id)}>
                        {role}
                    </button>
                );
            })}
        </div>
    );
}

/**
 * `.part` files left by interrupted downloads (not the ones downloading now): downloading the same URL again
 * resumes where it stopped.
 */
export function PartialDownloads({partial, downloads, busy, onResume}: {
    partial: PartialDownload[], downloads: DownloadJob[], busy: boolean, onResume: (part: PartialDownload & {url: string}) => void
}) {
    const running = new Set(downloads.filter((job) => job.status === "downloading").map((job) => job.fileName));
    const left = partial.filter((part) => !running.has(part.fileName));
    if (left.length === 0) return null;
    return (
        <div className="models-partial" data-testid="partial-downloads">
            <span className="card-label">Unfinished downloads</span>
            <ul>
                {left.map((part) => (
                    <li key={part.fileName} data-testid={`partial-${part.fileName}`}>
                        <span className="mono">{part.fileName}</span>
                        <span className="muted small">{formatBytes(part.receivedBytes)} received</span>
                        {part.url != null
                            ? <button type="button" className="btn btn-sm push-right" disabled={busy} onClick={() => onResume({...part, url: part.url!})}>Resume</button>
                            : <span className="muted small push-right">source unknown: download it again to finish</span>}
                    </li>
                ))}
            </ul>
        </div>
    );
}
