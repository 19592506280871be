import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {Icon} from "../../components/Icon.tsx";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {useGatewayState} from "../../gateway/useGatewayState.ts";
import {toErrorInfo} from "../../runs/toErrorInfo.ts";
import type {ModelsState} from "../types.ts";
import {useModelsMutation} from "../useModelsMutation.ts";
import {fileNameOf} from "../utils/fileNameOf.ts";

/** The local engine as it runs now: which model, GPU or CPU, threads, context; stop it or start the default model. */
export function EnginePanel({models}: {models: ModelsState}) {
    const {data: state} = useGatewayState();
    const start = useModelsMutation((_: void) => gatewayApi.startEngine());
    const stop = useModelsMutation((_: void) => gatewayApi.stopEngine());
    const engine = state?.engine;
    const running = engine?.status === "running" || engine?.status === "starting";
    const failure = start.error ?? stop.error;
    // A stopped engine still names the model it would start with; say when that file has left the library.
    const outside = engine?.model != null && !models.models.some((model) => model.path === engine.model);
    const modelText = engine?.model != null ? `${fileNameOf(engine.model)}${outside ? " (not in the library)" : ""}` : undefined;
    const rows: Array<[string, string | undefined, string]> = engine == null ? [] : [
        [running ? "Model" : "Last model", modelText, "model"],
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
                    <div className="models-fact" key={id}>
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
