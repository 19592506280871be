// The gateway's routes under `/gateway/api`, as one table: the gateway dispatches on it and the renderer's typed
// client calls through it, so a route's method, path and answer type are written once.
import type {DownloadJob, EngineLifecycleSettings, GatewayState, GpuReport, ModelRole, ModelsState} from "./contract.ts";

export type GatewayMethod = "GET" | "POST" | "DELETE";

/** `:name` segments are parameters, sent URL-encoded. */
export const gatewayRoutes = {
    state: {method: "GET", path: "/state"},
    startEngine: {method: "POST", path: "/engine/start"},
    stopEngine: {method: "POST", path: "/engine/stop"},
    addConnection: {method: "POST", path: "/connections"},
    deleteConnection: {method: "DELETE", path: "/connections/:id"},
    activateConnection: {method: "POST", path: "/connections/:id/activate"},
    models: {method: "GET", path: "/models"},
    gpu: {method: "GET", path: "/models/gpu"},
    downloads: {method: "GET", path: "/models/downloads"},
    download: {method: "POST", path: "/models/download"},
    cancelDownload: {method: "DELETE", path: "/models/downloads/:id"},
    configure: {method: "POST", path: "/models/settings"},
    setRole: {method: "POST", path: "/models/roles"},
    setDefault: {method: "POST", path: "/models/:id/default"},
    removeModel: {method: "DELETE", path: "/models/:id"}
} as const satisfies Record<string, {method: GatewayMethod, path: string}>;

export type GatewayRouteName = keyof typeof gatewayRoutes;

/** What each route takes (body) and answers. */
export type GatewayRouteTypes = {
    state: {body: undefined, answer: GatewayState},
    startEngine: {body: {modelPath?: string} | {modelId: string}, answer: GatewayState},
    stopEngine: {body: Record<string, never>, answer: GatewayState},
    addConnection: {body: {name: string, baseUrl: string, apiKey?: string}, answer: GatewayState & {connection: GatewayState["connections"][number]}},
    deleteConnection: {body: undefined, answer: GatewayState},
    activateConnection: {body: Record<string, never>, answer: GatewayState},
    models: {body: undefined, answer: ModelsState},
    gpu: {body: undefined, answer: {gpu: GpuReport}},
    downloads: {body: undefined, answer: {downloads: DownloadJob[]}},
    download: {body: {source: string, sha256?: string, fileName?: string} | {catalogId: string, sha256?: string, fileName?: string}, answer: {download: DownloadJob}},
    cancelDownload: {body: undefined, answer: {download: DownloadJob}},
    configure: {body: Partial<EngineLifecycleSettings>, answer: ModelsState},
    setRole: {body: {role: ModelRole, modelId: string | null}, answer: ModelsState},
    setDefault: {body: Record<string, never>, answer: ModelsState},
    removeModel: {body: undefined, answer: ModelsState}
};

export type GatewayRouteMatch = {name: GatewayRouteName, params: Record<string, string>};

const compiled = Object.entries(gatewayRoutes).map(([name, route]) => ({
    name: name as GatewayRouteName,
    method: route.method as string,
    names: [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]),
    pattern: new RegExp(`^${route.path.replace(/:\w+/g, "([^/]+)")}$`)
}));

/**
 * The route for `method` and `path` (below `/gateway/api`), with its parameters still URL-encoded; `undefined` when
 * none matches. Fixed segments win over parameters (`/models/downloads` is not the model named "downloads").
 */
export function matchGatewayRoute(method: string, path: string): GatewayRouteMatch | undefined {
    let best: GatewayRouteMatch | undefined;
    for (const route of compiled) {
        if (route.method !== method) continue;
        const found = route.pattern.exec(path);
        if (found == null) continue;
        const params = Object.fromEntries(route.names.map((name, index) => [name, found[index + 1]]));
        if (best == null || route.names.length < Object.keys(best.params).length) best = {name: route.name, params};
    }
    return best;
}

/** The path of a route with its parameters filled in (URL-encoded). */
export function gatewayPath(name: GatewayRouteName, params: Record<string, string> = {}): string {
    return gatewayRoutes[name].path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ""));
}

/** Sends one call; the renderer's implementation adds the launch token and turns a non-2xx into an error. */
export type GatewaySend = (method: GatewayMethod, path: string, body?: unknown, query?: string) => Promise<unknown>;

/** A typed client of every route, over whatever `send` the caller has. */
export function createGatewayClient(send: GatewaySend) {
    const call = <N extends GatewayRouteName>(name: N, options: {params?: Record<string, string>, body?: GatewayRouteTypes[N]["body"], query?: string} = {}) =>
        send(gatewayRoutes[name].method, gatewayPath(name, options.params), options.body, options.query) as Promise<GatewayRouteTypes[N]["answer"]>;
    return {
        state: () => call("state"),
        startEngine: (body: GatewayRouteTypes["startEngine"]["body"] = {}) => call("startEngine", {body}),
        stopEngine: () => call("stopEngine", {body: {}}),
        /** The key goes to the gateway's vault and is never sent back. */
        addConnection: (body: GatewayRouteTypes["addConnection"]["body"]) => call("addConnection", {body}),
        deleteConnection: (id: string) => call("deleteConnection", {params: {id}}),
        activateConnection: (id: string) => call("activateConnection", {params: {id}, body: {}}),
        models: () => call("models"),
        gpu: (refresh = false) => call("gpu", {query: refresh ? "refresh" : undefined}),
        downloads: () => call("downloads"),
        download: (body: GatewayRouteTypes["download"]["body"]) => call("download", {body}),
        cancelDownload: (id: string) => call("cancelDownload", {params: {id}}),
        configure: (body: GatewayRouteTypes["configure"]["body"]) => call("configure", {body}),
        setRole: (role: ModelRole, modelId: string | null) => call("setRole", {body: {role, modelId}}),
        setDefault: (id: string) => call("setDefault", {params: {id}, body: {}}),
        removeModel: (id: string) => call("removeModel", {params: {id}})
    };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;
