import type {EngineStatus} from "./EngineSupervisor.ts";

/**
 * `GET /gateway/api/state` (gateway contract); also the answer of every state-changing gateway call. The renderer
 * imports this type (type-only) so both sides share one definition. The engine's loopback URL is included: it is
 * what "View code" shows scripts on this machine (the local engine needs no key).
 */
export type GatewayState = {
    engine: Omit<EngineStatus, "restarts">,
    connections: Array<{id: string, kind: "local" | "remote", name: string, baseUrl?: string, hasKey: boolean}>,
    activeConnectionId: string,
    mode: "electron" | "web"
};
