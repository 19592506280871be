// The engine side of the Models screen: the running engine, the GPU and memory report, lifecycle settings.
import {useState, useEffect, type FormEvent, type ReactNode} from "react";
import {formatBytes} from "../../../../base/common/format.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {useGatewayState} from "../../gateway/gatewayState.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {Icon} from "../../ui/controls.tsx";
import {VisionFact} from "../../ui/imageSupport.tsx";
import {useModelsMutation, fileNameOf, useGpuReport} from "./models.ts";
import type {ModelsState, GpuBackend, LifecycleSettings as Settings} from "./types.ts";

/** The local engine as it runs now: which model, GPU or CPU, threads, context; stop it or start the default model. */
export function EnginePanel({models}: {models: ModelsState}) {
    const {data: state} = useGatewayState();
    const start = useModelsMutation((_: void) => gatewayApi.startEngine());
    const stop = useModelsMutation((_: void) => gatewayApi.stopEngine());
    const engine = state?.engine;
    const running = engine?.status === "running" || engine?.status === "starting";
    const failure = start.error ?? stop.error;
    // A stopped engine still names the model it would start with; say when that file has left the library.
    const builtIn = engine?.model != null && models.builtIn?.path === engine.model;
    const outside = engine?.model != null && !builtIn && !models.models.some((model) => model.path === engine.model);
    const modelText = engine?.model != null ? `${fileNameOf(engine.model)}${builtIn ? " (built-in)" : outside ? " (not in the library)" : ""}` : undefined;
    const rows: Array<[string, ReactNode, string]> = engine == null ? [] : [
        [running ? "Model" : "Last model", modelText, "model"],
        ["Images", engine.status === "running" ? <VisionFact mmproj={engine.mmproj} /> : undefined, "vision"],
        ["Compute", engine.gpu === undefined ? undefined : engine.gpu === false ? "CPU" : `GPU (${engine.gpu})`, "compute"],
        ["Threads", engine.threads?.toString(), "threads"],
        ["Context size", engine.contextSize != null ? `${engine.contextSize.toLocaleString("en-US")} tokens` : undefined, "context"]
    ];
    return (
        <section className="card" data-testid="models-engine">
            <div className="card-title-row">
                <h3>Local engine</h3>
                <span className={`status-badge engine-${engine?.status ?? "stopped"}`} data-testid="models-engine-status">{engine?.status ?? "…"}</span>
                {running
                    ? <button type="button" className="btn btn-sm push-right" disabled={stop.isPending} onClick={() => stop.mutate()} data-testid="models-engine-stop"><Icon name="stop" /> Stop</button>
                    : <button type="button" className="btn btn-sm push-right" disabled={start.isPending || models.defaultId == null} onClick={() => start.mutate()}
                        title={models.defaultId != null ? `Start with ${models.active.modelId ?? models.defaultId}` : "Download a model first"}
                        data-testid="models-engine-start"><Icon name="play" /> {start.isPending ? "Starting…" : "Start"}</button>}
            </div>
            <dl className="models-facts">
                {rows.map(([label, value, id]) => (
                    <div className={id === "vision" ? "models-fact wide" : "models-fact"} key={id}>
                        <dt>{label}</dt>
                        <dd className="mono break" data-testid={`models-engine-${id}`} title={id === "model" ? engine?.model : undefined}>{value ?? "—"}</dd>
                    </div>
                ))}
            </dl>
            {models.active.unloadedForIdle && engine?.status === "stopped" && (
                <div className="muted small" data-testid="models-engine-idle">Unloaded after {models.settings.idleUnloadMinutes} idle minutes; the next request loads it again.</div>
            )}
            {engine?.error && engine.status === "crashed" && <div className="field-error" data-testid="models-engine-error">{engine.error}</div>}
            {failure != null && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}

const backendNames: Record<GpuBackend["type"], string> = {cuda: "CUDA (NVIDIA)", vulkan: "Vulkan", metal: "Metal (Apple)"};

function BackendRow({backend}: {backend: GpuBackend}) {
    const memory = backend.vramTotalBytes != null && backend.vramTotalBytes > 0
        ? `${formatBytes(backend.vramFreeBytes ?? 0)} free of ${formatBytes(backend.vramTotalBytes)}` : undefined;
    return (
        <li className="models-backend" data-testid={`gpu-backend-${backend.type}`} data-usable={backend.usable}>
            <div className="row-gap">
                <span className="strong">{backendNames[backend.type]}</span>
                <span className={`badge ${backend.usable ? "badge-ok" : "badge-warn"}`}>{backend.usable ? "usable" : "not usable"}</span>
            </div>
            {backend.usable
                ? <div className="small mono">{backend.devices.join(", ") || "device"}{memory != null ? ` · ${memory}` : ""}</div>
                : <div className="small" data-testid="gpu-reason">{backend.reason}</div>}
        </li>
    );
}

/** Which GPU backends llama.cpp can use on this machine, and for each one it cannot, why and what to install. */
export function GpuPanel() {
    const {data: report, error, isLoading, recheck} = useGpuReport();
    const [checking, setChecking] = useState(false);
    const [recheckError, setRecheckError] = useState<unknown>();
    const again = () => {
        setChecking(true);
        setRecheckError(undefined);
        recheck().catch(setRecheckError).finally(() => setChecking(false));
    };
    const failure = recheckError ?? error;
    return (
        <section className="card" data-testid="models-gpu">
            <div className="card-title-row">
                <h3>GPU</h3>
                {report != null && <span className="mono muted small">{report.platform} {report.arch}</span>}
                <button type="button" className="btn btn-sm push-right" disabled={checking || isLoading} onClick={again} data-testid="gpu-recheck">
                    {checking ? "Checking…" : "Check again"}
                </button>
            </div>
            {(isLoading || checking) && <div className="muted small">Detecting GPU backends (a few seconds)…</div>}
            {report != null && !checking && (
                <>
                    <div className={`models-gpu-verdict ${report.best === false ? "cpu" : "gpu"}`} data-testid="gpu-verdict">
                        {report.best === false
                            ? "No usable GPU: models run on the CPU (slower, but everything works)."
                            : `Models run on the GPU with ${backendNames[report.best]}; layers are offloaded automatically.`}
                    </div>
                    {report.hardware.nvidiaSmiGpus.length > 0 && <div className="small mono">nvidia-smi: {report.hardware.nvidiaSmiGpus.join("; ")}</div>}
                    <ul className="models-backends">
                        {report.backends.map((backend) => <BackendRow key={backend.type} backend={backend} />)}
                    </ul>
                </>
            )}
            {failure != null && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}

/** When the engine loads and unloads by itself: on the first request, and after some idle minutes. */
export function LifecycleSettings({settings}: {settings: Settings}) {
    const configure = useModelsMutation(gatewayApi.configure);
    const [minutes, setMinutes] = useState(String(settings.idleUnloadMinutes));
    // Follow the gateway's value unless the user is editing it.
    const [editing, setEditing] = useState(false);
    useEffect(() => {
        if (!editing) setMinutes(String(settings.idleUnloadMinutes));
    }, [settings.idleUnloadMinutes, editing]);
    // The box shows the choice at once (a controlled box would flick back until the gateway's answer arrives).
    const [autoStartChoice, setAutoStartChoice] = useState<boolean>();
    const autoStart = autoStartChoice ?? settings.autoStart;
    const chooseAutoStart = (value: boolean) => {
        setAutoStartChoice(value);
        configure.mutate({autoStart: value}, {onSettled: () => setAutoStartChoice(undefined)});
    };
    const parsed = Number(minutes);
    const valid = minutes.trim() !== "" && Number.isInteger(parsed) && parsed >= 0 && parsed <= 7 * 24 * 60;
    const save = (event: FormEvent) => {
        event.preventDefault();
        if (!valid) return;
        configure.mutate({idleUnloadMinutes: parsed}, {onSettled: () => setEditing(false)});
    };
    return (
        <section className="card" data-testid="models-settings">
            <div className="card-title-row"><h3>Loading and unloading</h3></div>
            <label className="models-check">
                <input type="checkbox" checked={autoStart} disabled={configure.isPending}
                    onChange={(event) => chooseAutoStart(event.target.checked)} data-testid="setting-auto-start" />
                <span>
                    Start the engine on the first request
                    <span className="muted small models-check-hint">A request to the local engine while it is stopped loads the last model (or the default).</span>
                </span>
            </label>
            <form className="models-idle" onSubmit={save}>
                <label htmlFor="models-idle-minutes">Unload after</label>
                <input id="models-idle-minutes" className="input input-sm mono" type="number" min={0} max={7 * 24 * 60} step={1} value={minutes}
                    onChange={(event) => { setEditing(true); setMinutes(event.target.value); }} data-testid="setting-idle-minutes" />
                <span>idle minutes</span>
                <button type="submit" className="btn btn-sm" disabled={!valid || configure.isPending || Number(minutes) === settings.idleUnloadMinutes}
                    data-testid="setting-idle-save">Save</button>
            </form>
            <div className={valid ? "muted small" : "field-error"}>
                {valid ? (parsed === 0 ? "0 keeps the model loaded until you stop it." : "Frees the model's memory when unused; the next request loads it again.")
                    : "A whole number of minutes, 0 to 10080 (a week)."}
            </div>
            {configure.error != null && <ApiErrorView error={toErrorInfo(configure.error)} />}
        </section>
    );
}
