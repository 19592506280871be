import {useState} from "react";
import {gatewayApi} from "../gateway/gatewayApi.ts";
import type {EngineState} from "../gateway/types.ts";
import {useGatewayMutation} from "../gateway/useGatewayMutation.ts";
import {toErrorInfo} from "../runs/toErrorInfo.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";
import {Icon} from "./Icon.tsx";

/** The local engine: status, model and hardware, with start and stop. */
export function EngineCard({engine}: {engine: EngineState}) {
    const [modelPath, setModelPath] = useState("");
    const start = useGatewayMutation((path: string) => gatewayApi.startEngine(path || undefined));
    const stop = useGatewayMutation((_: void) => gatewayApi.stopEngine());
    const busy = start.isPending || stop.isPending;
    const running = engine.status === "running" || engine.status === "starting";
    const failure = start.error ?? stop.error;
    const rows: Array<[string, string | undefined]> = [
        ["Model", engine.model],
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
                {!running && (
                    <input className="input mono" placeholder="Model path (optional: keeps the current model)" value={modelPath}
                        onChange={(event) => setModelPath(event.target.value)} aria-label="Model path" />
                )}
                {running
                    ? <button type="button" className="btn btn-danger" disabled={busy} onClick={() => stop.mutate()} data-testid="engine-stop"><Icon name="stop" /> Stop engine</button>
                    : <button type="button" className="btn btn-primary" disabled={busy} onClick={() => start.mutate(modelPath)} data-testid="engine-start"><Icon name="play" /> Start engine</button>}
            </div>
            {failure && <ApiErrorView error={toErrorInfo(failure)} />}
        </section>
    );
}
