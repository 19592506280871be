import {modelIds} from "../../../protocol/limits.ts";
import type {GatewayState} from "../gateway/types.ts";

/** Where a script reaches the local engine when the gateway does not say: the CLI's default port. */
export const defaultLocalEngineUrl = "http://127.0.0.1:8080";

/**
 * The base URL a script outside the app would use for the active connection, ending in `/svc-1/v1`:
 * the local engine's own URL (not the gateway's, whose token scripts do not have), or the remote
 * profile's base URL.
 */
export function apiBaseUrl(state: GatewayState | undefined): string {
    const active = state?.connections.find((connection) => connection.id === state.activeConnectionId);
    const root = active?.kind === "remote" && active.baseUrl ? active.baseUrl : localEngineUrl(state);
    return `${root.replace(/\/+$/, "")}/${modelIds.chat}/v1`;
}

function localEngineUrl(state: GatewayState | undefined): string {
    const engine = state?.engine;
    return engine?.url ?? defaultLocalEngineUrl;
}
