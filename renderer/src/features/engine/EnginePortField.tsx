// The local engine's port on the Engine screen: where scripts, View code and remote profiles reach it, kept across
// restarts and launches by the gateway (in the app's data folder); a change moves a running engine at once.
import {useState} from "react";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import {useGatewayMutation} from "../../gateway/gatewayState.ts";
import type {EngineState} from "../../gateway/types.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {portRule, readPortInput} from "./enginePort.ts";

export function EnginePortField({engine}: {engine: EngineState}) {
    const [text, setText] = useState("");
    const input = readPortInput(text);
    const change = useGatewayMutation((port: number) => gatewayApi.setEnginePort(port));
    const running = engine.status === "running" || engine.status === "starting";
    const chosen = input.kind === "port" && input.port !== engine.port ? input.port : undefined;
    return (
        <div className="engine-port" data-testid="engine-port">
            <div className="engine-port-row">
                <label className="engine-threads">
                    <span>Port</span>
                    <input className="input mono" inputMode="numeric" value={text} placeholder={engine.port?.toString() ?? ""} aria-invalid={input.kind === "invalid"}
                        onChange={(event) => { setText(event.target.value); change.reset(); }} data-testid="engine-port-input"
                        title={`The loopback port the engine listens on: ${portRule}. Kept across restarts and launches`} />
                </label>
                {chosen != null && (
                    <button type="button" className="btn" disabled={change.isPending} onClick={() => change.mutate(chosen, {onSuccess: () => setText("")})}
                        data-testid="engine-port-apply">{change.isPending ? "Applying…" : running ? `Restart on port ${chosen}` : `Use port ${chosen}`}</button>
                )}
                <span className="muted small" data-testid="engine-port-note">
                    {engine.port == null || engine.portNotice != null ? null : engine.port === 0
                        ? "Now a free port at every start: scripts, View code and remote profiles need the new address after each restart. Choose a port to keep one."
                        : `Now ${engine.port}, kept across restarts and launches: scripts, View code and remote profiles pointed at http://127.0.0.1:${engine.port} keep working.`}
                </span>
            </div>
            {engine.portNotice != null && <div className="field-warning" role="status" data-testid="engine-port-notice">{engine.portNotice}</div>}
            {input.kind === "invalid" && <div className="field-error" data-testid="engine-port-invalid">{input.message}</div>}
            {change.error != null && <ApiErrorView error={toErrorInfo(change.error)} />}
        </div>
    );
}
