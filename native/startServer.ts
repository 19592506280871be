import {modelIds} from "../protocol/limits.ts";
import {chatModelVariants, createChatCompletionsRoute} from "./chat/routes.ts";
import {createCompletionsRoute} from "./completions/routes.ts";
import {LocalEngine, type LocalEngineOptions, unixSeconds} from "./engine/LocalEngine.ts";
import {HttpServer, type Route} from "./http/HttpServer.ts";
import {createDecisionRoutes} from "./decisions/routes.ts";
import {LlamaDecisionEngine} from "./decisions/LlamaDecisionEngine.ts";
import {createModelsRoutes} from "./models/routes.ts";
import {createResponsesRoute} from "./responses/routes.ts";

export type ServerOptions = LocalEngineOptions & {
    /** Model for `svc-1-decision`; the chat model when absent. */
    decisionModelPath?: string,
    /** Model for the reasoning-by-default variant `svc-1-reasoning`; the chat model when absent. */
    reasoningModelPath?: string,
    host?: string,
    port?: number,
    apiKeys?: string[]
};

export type RunningServer = {
    url: string,
    engine: LocalEngine,
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
    const disposeEngines = async () => {
        for (const extra of extraEngines) await extra.dispose();
        await engine.dispose();
    };
    const decisionEngine = await engineFor(options.decisionModelPath);
    const reasoningEngine = await engineFor(options.reasoningModelPath);
    const created = unixSeconds();
    const chatModels = chatModelVariants(engine, reasoningEngine);
    const routes: Route[] = [
        // svc-1, and its reasoning-by-default variant when the model can think: each with models, chat and Responses.
        ...chatModels.flatMap((variant) => [
            ...createModelsRoutes(variant.id, chatModels.map((served) => served.id), created),
            createChatCompletionsRoute(variant),
            createResponsesRoute(variant)
        ]),
        createCompletionsRoute(engine, modelIds.chat),
        ...createModelsRoutes(modelIds.decision, [modelIds.decision], created),
        ...createDecisionRoutes(new LlamaDecisionEngine(decisionEngine))
    ];
    const http = new HttpServer({routes, apiKeys: options.apiKeys ?? []});
    const host = options.host ?? "127.0.0.1";
    let address;
    try {
        address = await http.listen(options.port ?? 8080, host);
    } catch (error) {
        await disposeEngines();
        throw error;
    }
    const urlHost = address.host.includes(":") ? `[${address.host}]` : address.host;
    return {
        url: `http://${urlHost}:${address.port}`,
        engine,
        async close() {
            await http.close();
            await disposeEngines();
        }
    };
}
