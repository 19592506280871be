// The Engine & connections screen: the local engine's state and controls, the connection profiles, adding a remote one.
import {useState, type ReactNode} from "react";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {useGatewayState, useGatewayMutation} from "../../gateway/gatewayState.ts";
import type {EngineState, GatewayState} from "../../gateway/types.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {Icon} from "../../ui/controls.tsx";
import {VisionFact} from "../../ui/imageSupport.tsx";
import {DataBackupCard} from "./DataBackupCard.tsx";
import {EnginePortField} from "./EnginePortField.tsx";
import {engineAddress} from "../../gateway/engineAddress.ts";

/** Engine & connections: the local engine's state and controls, and the connection profiles. */
export function EngineScreen() {
    const {data: state, error, isLoading} = useGatewayState();
    return (
        <div className="page" data-testid="engine-screen">
            {isLoading && <div className="muted">Reading the gateway state…</div>}
            {error && <ApiErrorView error={toErrorInfo(error)} />}
            {state && (
                <div className="page-grid">
                    <EngineCard engine={state.engine} />
                    <ConnectionsList state={state} />
                    <AddConnectionForm mode={state.mode} />
                    <DataBackupCard />
                </div>
            )}
        </div>
    );
}

/** The local engine: status, model and hardware, with start and stop. */
export function EngineCard({engine}: {engine: EngineState}) {
    const [modelPath, setModelPath] = useState("");
    const [threadsText, setThreadsText] = useState("");
    const threads = /^\d+$/.test(threadsText.trim()) && Number(threadsText) >= 1 ? Number(threadsText) : undefined;
    const threadsInvalid = threadsText.trim() !== "" && threads == null;
    const start = useGatewayMutation((path: string) => gatewayApi.startEngine({...path ? {modelPath: path} : {}, ...threads != null ? {threads} : {}}));
    const [keyCopied, setKeyCopied] = useState(false);
    const copyKey = async () => {
        await navigator.clipboard.writeText((await gatewayApi.engineKey()).key);
        setKeyCopied(true);
    };
    const stop = useGatewayMutation((_: void) => gatewayApi.stopEngine());
    const busy = start.isPending || stop.isPending;
    const running = engine.status === "running" || engine.status === "starting";
    const failure = start.error ?? stop.error;
    const rows: Array<[string, ReactNode]> = [
        ["Model", engine.model],
        ["Address", engineAddress(engine) ?? (engine.port === 0 ? "a free port, chosen at start" : undefined)],
        ["Images", engine.status === "running" ? <VisionFact mmproj={engine.mmproj} /> : undefined],
        ["Compute", engine.gpu === undefined ? undefined : engine.gpu === false ? "CPU" : `GPU (${engine.gpu})`],
        ["Threads", engine.threads?.toString()],
        ["Context size", engine.contextSize?.toLocaleString("en-US")],
        ["Parallel sequences", engine.parallel?.toString()],
        ["Process", engine.pid ? `pid ${engine.pid}` : undefined]
    ];
    return (
        <section className="card engine-card" data-testid="engine-card">
            <div className="card-title-row">
                <h3>Local engine</h3>
                <span className={`status-badge engine-${engine.status}`} data-testid="engine-status">{engine.status}</span>
            </div>
            <dl className="facts">
                {rows.filter(([, value]) => value !== undefined).map(([label, value]) => (
                    <div className="fact" key={label}><dt>{label}</dt><dd className={label === "Model" ? "mono break" : "mono"} data-testid={`engine-${label.toLowerCase().replace(/\s+/g, "-")}`}>{value}</dd></div>
                ))}
            </dl>
            {engine.error && <div className="field-error" data-testid="engine-error">{engine.error}</div>}
            <div className="engine-actions">
                <label className="engine-threads">
                    <span>Threads</span>
                    <input className="input mono" inputMode="numeric" value={threadsText} placeholder={engine.threads?.toString() ?? "default"}
                        onChange={(event) => setThreadsText(event.target.value)} aria-invalid={threadsInvalid} data-testid="engine-threads-input"
                        title="Generation threads. Default: this machine's cores less one, which leaves a core to the app itself (on 2 cores, 2 threads were 10x slower than 1)" />
                </label>
                {running && threads != null && threads !== engine.threads && (
                    <button type="button" className="btn" disabled={busy} onClick={() => start.mutate("")} data-testid="engine-threads-apply">Restart with {threads} thread{threads === 1 ? "" : "s"}</button>
                )}
                {!running && (
                    <input className="input mono" placeholder="Model path (optional: keeps the current model)" value={modelPath}
                        onChange={(event) => setModelPath(event.target.value)} aria-label="Model path" />
                )}
                {running
                    ? <button type="button" className="btn btn-danger" disabled={busy} onClick={() => stop.mutate()} data-testid="engine-stop"><Icon name="stop" /> Stop engine</button>
                    : <button type="button" className="btn btn-primary" disabled={busy} onClick={() => start.mutate(modelPath)} data-testid="engine-start"><Icon name="play" /> Start engine</button>}
            </div>
            {threadsInvalid && <div className="field-error">Threads must be a whole number, at least 1.</div>}
            <EnginePortField engine={engine} />
            <p className="muted small">
                Scripts on this machine reach the engine at its own address with its per-launch key (View code reads it from <span className="mono">SVC_API_KEY</span>).{" "}
                <button type="button" className="btn btn-sm" onClick={() => void copyKey()} data-testid="engine-copy-key">{keyCopied ? "Key copied" : "Copy engine key"}</button>
            </p>
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}

/** Every connection profile; one is active and all playground requests go through it. */
export function ConnectionsList({state}: {state: GatewayState}) {
    const activate = useGatewayMutation(gatewayApi.activateConnection);
    const remove = useGatewayMutation(gatewayApi.deleteConnection);
    const failure = activate.error ?? remove.error;
    return (
        <section className="card" data-testid="connections">
            <div className="card-title-row"><h3>Connections</h3></div>
            {state.keysNotice != null && <div className="field-warning" role="alert" data-testid="keys-notice">{state.keysNotice}</div>}
            <ul className="connection-list">
                {state.connections.map((connection) => {
                    const active = connection.id === state.activeConnectionId;
                    return (
                        <li key={connection.id} className={`connection${active ? " active" : ""}`} data-testid={`connection-${connection.id}`}>
                            <span className={`dot ${active ? "on" : ""}`} aria-hidden="true" />
                            <div className="connection-main">
                                <div className="connection-name">{connection.name} <span className="badge">{connection.kind}</span>
                                    {connection.kind === "remote" && <span className={`badge ${connection.hasKey ? "badge-ok" : "badge-warn"}`}>{connection.hasKey ? "key stored" : "no key"}</span>}
                                </div>
                                <div className="mono small muted">{connection.kind === "local" ? "this machine · started by the app" : connection.baseUrl}</div>
                            </div>
                            {active
                                ? <span className="badge badge-accent">active</span>
                                : <button type="button" className="btn btn-sm" onClick={() => activate.mutate(connection.id)} data-testid={`activate-${connection.id}`}>Activate</button>}
                            {connection.kind === "remote" && (
                                <button type="button" className="icon-btn danger" aria-label={`Delete ${connection.name}`} onClick={() => remove.mutate(connection.id)}><Icon name="close" /></button>
                            )}
                        </li>
                    );
                })}
            </ul>
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}

/**
 * Adds a remote profile. The key is posted once to the gateway, which keeps it (vault, or memory in
 * browser mode) and never sends it back; the field is cleared as soon as the request is sent.
 */
export function AddConnectionForm({mode}: {mode: "electron" | "web"}) {
    const [name, setName] = useState("");
    const [baseUrl, setBaseUrl] = useState("");
    const [apiKey, setApiKey] = useState("");
    const add = useGatewayMutation(gatewayApi.addConnection);
    return (
        <section className="card" data-testid="add-connection">
            <div className="card-title-row"><h3>Add a remote connection</h3></div>
            <form className="form-grid" autoComplete="off" onSubmit={(event) => {
                event.preventDefault();
                const key = apiKey;
                setApiKey("");
                add.mutate({name: name.trim(), baseUrl: baseUrl.trim(), ...(key ? {apiKey: key} : {})}, {
                    onSuccess: () => {
                        setName("");
                        setBaseUrl("");
                    }
                });
            }}>
                <label>Name<input className="input" required value={name} onChange={(event) => setName(event.target.value)} placeholder="Production" data-testid="connection-name" /></label>
                <label>Base URL<input className="input mono" required type="url" value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)}
                    placeholder="https://api.example.com" data-testid="connection-base-url" /></label>
                <label>API key<input className="input mono" type="password" value={apiKey} onChange={(event) => setApiKey(event.target.value)}
                    placeholder="ck_…" autoComplete="new-password" data-testid="connection-key" /></label>
                <div className="form-actions">
                    <button type="submit" className="btn btn-primary" disabled={add.isPending}>Add connection</button>
                    <span className="muted small">
                        {mode === "web" ? "Browser mode: the gateway keeps the key in memory until it stops." : "The key is stored encrypted by the app."} The page never sees it again.
                    </span>
                </div>
            </form>
            {add.error && <ApiErrorView error={toErrorInfo(add.error)} />}
        </section>
    );
}
