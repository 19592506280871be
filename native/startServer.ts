import {modelIds} from "../protocol/limits.ts";
import {chatModelVariants, createChatCompletionsRoute} from "./chat/routes.ts";
import {createCompletionsRoute} from "./completions/routes.ts";
import {LocalEngine, type LocalEngineOptions, unixSeconds} from "./engine/LocalEngine.ts";
import {HttpServer, type Route} from "./http/HttpServer.ts";
import {createDecisionRoutes} from "./decisions/routes.ts";
import {LlamaDecisionEngine} from "./decisions/LlamaDecisionEngine.ts";
import {localDecisionBackend} from "./decisions/decisionBackend.ts";
import {VisionEngine} from "./vision/VisionEngine.ts";
import {withVision} from "./vision/visionDecisions.ts";
import {createModelsRoutes} from "./models/routes.ts";
import {createResponsesRoute} from "./responses/routes.ts";
import {hostname} from "node:os";
import {ServiceGate} from "./service/ServiceGate.ts";
import type {ServiceBackend} from "./service/backend.ts";
import {openServiceBackend} from "./service/openBackend.ts";

/** How the server is reached and guarded, whatever generates behind it (the local engine, or an upstream: native/upstream). */
export type ServiceOptions = Pick<ServerOptions, "host" | "port" | "apiKeys" | "corsOrigins" | "dataDir" | "databaseUrl" | "frontName" | "adminKey" | "keyActivationSeconds">;

export type ServerOptions = LocalEngineOptions & {
    /** The chat model's vision projector (mmproj GGUF): images are then read by native/vision (docs/vision.md). */
    mmprojPath?: string,
    /** Model for `svc-1-decision`; the chat model when absent. */
    decisionModelPath?: string,
    /** Model for the reasoning-by-default variant `svc-1-reasoning`; the chat model when absent. */
    reasoningModelPath?: string,
    host?: string,
    port?: number,
    apiKeys?: string[],
    /** Browser origins a keyless server answers CORS for, besides loopback ones (http/browserPolicy.ts). */
    corsOrigins?: string[],
    /** Folder of the service database (workspaces, keys, credits, usage: native/service); none without it. */
    dataDir?: string,
    /** A PostgreSQL database instead of the folder's SQLite file, which several servers (fronts) share. */
    databaseUrl?: string,
    /** This server's `front` label on /metrics (default on PostgreSQL: host name and port). */
    frontName?: string,
    /** Key for the admin API and /metrics from other machines; without it they answer loopback callers only. */
    adminKey?: string,
    /** Spec §5 rule 4: seconds a created or rotated key may still fail (default 0). */
    keyActivationSeconds?: number
};

export type RunningServer = {
    url: string,
    engine: LocalEngine,
    /** The service database and the authorization mode at start (native/service); absent without `dataDir`. */
    service?: {databasePath: string, mode: ServiceGate["mode"]},
    close(): Promise<void>
};

/** Loads the engine and serves the API on `host:port` (port 0 picks a free one). */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
    const engine = await LocalEngine.load(options);
    // A role given its own file gets its own engine; otherwise it shares the chat model's.
    const extraEngines: LocalEngine[] = [];
    const engineFor = async (modelPath: string | undefined): Promise<LocalEngine> => {
        if (modelPath == null || modelPath === options.modelPath) return engine;
        try {
            const loaded = await LocalEngine.load({...options, modelPath});
            extraEngines.push(loaded);
            return loaded;
        } catch (error) {
            await disposeEngines();
            throw error;
        }
    };
    let vision: VisionEngine | undefined;
    const disposeEngines = async () => {
        await vision?.dispose();
        for (const extra of extraEngines) await extra.dispose();
        await engine.dispose();
    };
    const decisionEngine = await engineFor(options.decisionModelPath);
    const reasoningEngine = await engineFor(options.reasoningModelPath);
    if (options.mmprojPath != null) {
        vision = await VisionEngine.load({modelPath: options.modelPath, mmprojPath: options.mmprojPath, threads: engine.info.threads,
            contextSize: engine.info.contextSize, gpu: engine.info.gpu !== false, maxQueue: options.maxQueue}).catch(async (error: unknown) => {
            await disposeEngines();
            throw error;
        });
    }
    const created = unixSeconds();
    const chatModels = chatModelVariants(engine, reasoningEngine, vision);
    const routes: Route[] = [
        // svc-1, and its reasoning-by-default variant when the model can think: each with models, chat and Responses.
        ...chatModels.flatMap((variant) => [
            ...createModelsRoutes(variant.id, chatModels.map((served) => served.id), created),
            createChatCompletionsRoute(variant),
            createResponsesRoute(variant)
        ]),
        createCompletionsRoute(engine, modelIds.chat),
        ...createModelsRoutes(modelIds.decision, [modelIds.decision], created),
        // Decisions see images when they run on the chat model, the one the projector belongs to.
        ...createDecisionRoutes(new LlamaDecisionEngine(vision != null && decisionEngine === engine ? withVision(localDecisionBackend(engine), vision) : decisionEngine))
    ];
    // A request holds credit for the largest context served (billing.ts); the queue gauges read each engine's
    // scheduler, labelled with the model ids it serves.
    const served: Array<[LocalEngine, string]> = [...chatModels.map((variant): [LocalEngine, string] => [variant.engine, variant.id]), [decisionEngine, modelIds.decision]];
    const modelsOf = new Map<LocalEngine, string[]>();
    for (const [local, id] of served) modelsOf.set(local, [...modelsOf.get(local) ?? [], id]);
    const distinct = [...modelsOf.entries()];
    const running = await serveRoutes(options, routes, {
        holdTokens: Math.max(...distinct.map(([local]) => local.context.contextSize)),
        queues: distinct.map(([local, ids]) => ({model: ids.join(","), depth: () => local.scheduler.queued, busy: () => local.info.parallel - local.scheduler.idle}))
    }, disposeEngines);
    return {...running, engine};
}

/** What the gate's billing and /metrics read of the generating side (native/service). */
export type ServedCapacity = {holdTokens: number, queues: Array<{model: string, depth: () => number, busy: () => number}>};

/**
 * Serves `routes` with the HTTP server and the service gate (native/service: static keys or workspace mode, the
 * admin API and /metrics), the same for the local engine and an upstream front; `dispose` releases what generates.
 */
export async function serveRoutes(options: ServiceOptions, routes: Route[], capacity: ServedCapacity, dispose: () => Promise<void>): Promise<Omit<RunningServer, "engine">> {
    let store: ServiceBackend | undefined;
    let http: HttpServer;
    let gate: ServiceGate;
    const host = options.host ?? "127.0.0.1";
    let address;
    try {
        store = options.databaseUrl != null || options.dataDir != null
            ? await openServiceBackend({dataDir: options.dataDir ?? ".", databaseUrl: options.databaseUrl, server: true, front: options.frontName ?? hostname()})
            : undefined;
        gate = await createGate(options, store, routes, capacity);
        http = new HttpServer({routes, apiKeys: options.apiKeys ?? [], corsOrigins: options.corsOrigins, gate});
        address = await http.listen(options.port ?? 8080, host);
    } catch (error) {
        await store?.close();
        await dispose();
        throw error;
    }
    // Several fronts of one database are told apart on /metrics by this label (one on SQLite needs none).
    const front = options.frontName ?? (store?.kind === "postgres" ? `${hostname()}:${address.port}` : undefined);
    if (front != null) gate.metrics.registry.setDefaultLabels({front});
    const urlHost = address.host.includes(":") ? `[${address.host}]` : address.host;
    return {
        url: `http://${urlHost}:${address.port}`,
        ...(store != null ? {service: {databasePath: store.location, mode: gate.mode}} : {}),
        async close() {
            await http.close();
            await store?.close();
            await dispose();
        }
    };
}

/** The service gate (native/service): static keys or workspace mode, the admin API and /metrics. */
function createGate(options: ServiceOptions, backend: ServiceBackend | undefined, routes: Route[], {holdTokens, queues}: ServedCapacity): Promise<ServiceGate> {
    return ServiceGate.create({
        backend,
        apiKeys: options.apiKeys,
        adminKey: options.adminKey,
        keyActivationMs: (options.keyActivationSeconds ?? 0) * 1000,
        holdTokens,
        endpoints: routes.map((route) => `/${route.model}${route.path}`),
        queues
    });
}
