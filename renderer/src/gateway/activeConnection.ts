import {queryClient} from "../state/queryClient.ts";
import {gatewayStateKey} from "./useGatewayState.ts";
import type {Connection, GatewayState} from "./types.ts";

/** The active connection in the last gateway state read; the local engine until the state has loaded. */
export function activeConnection(state: GatewayState | undefined = queryClient.getQueryData<GatewayState>(gatewayStateKey)): Connection {
    return state?.connections.find((connection) => connection.id === state.activeConnectionId)
        ?? {id: "local", kind: "local", name: "Local engine", hasKey: false};
}
