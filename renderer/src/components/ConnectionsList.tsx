import {gatewayApi} from "../gateway/gatewayApi.ts";
import type {GatewayState} from "../gateway/types.ts";
import {useGatewayMutation} from "../gateway/useGatewayMutation.ts";
import {toErrorInfo} from "../runs/toErrorInfo.ts";
import {ApiErrorView} from "./ApiErrorView.tsx";
import {Icon} from "./Icon.tsx";

/** Every connection profile; one is active and all playground requests go through it. */
export function ConnectionsList({state}: {state: GatewayState}) {
    const activate = useGatewayMutation(gatewayApi.activateConnection);
    const remove = useGatewayMutation(gatewayApi.deleteConnection);
    const failure = activate.error ?? remove.error;
    return (
        <section className="card" data-testid="connections">
            <div className="card-title-row"><h3>Connections</h3></div>
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
