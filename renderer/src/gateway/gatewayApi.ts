import {gatewayFetch} from "./gatewayFetch.ts";
import type {GatewayState} from "./types.ts";

/** The gateway's routes for the engine and connections (notes/gateway-contract.md). */
export const gatewayApi = {
    state: () => gatewayFetch<GatewayState>("/state"),
    startEngine: (modelPath?: string) => gatewayFetch<GatewayState>("/engine/start", {method: "POST", body: modelPath ? {modelPath} : {}}),
    stopEngine: () => gatewayFetch<GatewayState>("/engine/stop", {method: "POST", body: {}}),
    /** The key goes to the gateway's vault and is never sent back; the form clears it right after. */
    addConnection: (profile: {name: string, baseUrl: string, apiKey?: string}) => gatewayFetch<unknown>("/connections", {method: "POST", body: profile}),
    deleteConnection: (id: string) => gatewayFetch<unknown>(`/connections/${encodeURIComponent(id)}`, {method: "DELETE"}),
    activateConnection: (id: string) => gatewayFetch<unknown>(`/connections/${encodeURIComponent(id)}/activate`, {method: "POST", body: {}})
};
