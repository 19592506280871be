import {gatewayApi} from "../gateway/gatewayApi.ts";
import {useGatewayMutation} from "../gateway/useGatewayMutation.ts";
import {useGatewayState} from "../gateway/useGatewayState.ts";

/** Which connection the playgrounds talk to, switchable from every screen. */
export function ConnectionSwitcher() {
    const {data: state} = useGatewayState();
    const activate = useGatewayMutation(gatewayApi.activateConnection);
    if (!state) return null;
    const active = state.connections.find((connection) => connection.id === state.activeConnectionId);
    return (
        <label className={`connection-switcher kind-${active?.kind ?? "local"}`}>
            <span className="muted small">Connection</span>
            <select className="input input-sm" value={state.activeConnectionId} disabled={activate.isPending} data-testid="connection-switcher"
                onChange={(event) => activate.mutate(event.target.value)}>
                {(["local", "remote"] as const).map((kind) => {
                    const group = state.connections.filter((connection) => connection.kind === kind);
                    return group.length === 0 ? null : (
                        <optgroup key={kind} label={kind === "local" ? "This machine" : "Remote"}>
                            {group.map((connection) => <option key={connection.id} value={connection.id}>{connection.name}</option>)}
                        </optgroup>
                    );
                })}
            </select>
        </label>
    );
}
