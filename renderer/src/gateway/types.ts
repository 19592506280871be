// `GET /gateway/api/state` (notes/gateway-contract.md): what the renderer knows of the engine and connections.

export type EngineStatus = "stopped" | "starting" | "running" | "crashed";

export type EngineState = {
    status: EngineStatus,
    model?: string,
    /** The GPU backend in use, or false on CPU. */
    gpu?: string | false,
    threads?: number,
    contextSize?: number,
    parallel?: number,
    error?: string,
    pid?: number,
    /** The engine's own loopback URL when the gateway reports it (shown in "View code"). */
    url?: string,
    port?: number
};

export type Connection = {id: string, kind: "local" | "remote", name: string, baseUrl?: string, hasKey: boolean};

export type GatewayState = {
    engine: EngineState,
    connections: Connection[],
    activeConnectionId: string,
    mode: "electron" | "web"
};
