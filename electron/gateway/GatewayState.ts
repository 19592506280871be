import type {EngineStatusName} from "./EngineSupervisor.ts";

/** `GET /gateway/api/state` (gateway contract); also the answer of every state-changing gateway call. */
export type GatewayState = {
    engine: {
        status: EngineStatusName,
        model?: string,
        gpu?: string | false,
        threads?: number,
        contextSize?: number,
        parallel?: number,
        error?: string,
        pid?: number
    },
    connections: Array<{id: string, kind: "local" | "remote", name: string, baseUrl?: string, hasKey: boolean}>,
    activeConnectionId: string,
    mode: "electron" | "web"
};
