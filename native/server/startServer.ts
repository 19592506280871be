import {modelIds} from "../../protocol/limits.ts";
import {chatModelVariants} from "../chat/chatModelVariants.ts";
import {createChatCompletionsRoute} from "../chat/createChatCompletionsRoute.ts";
import {createCompletionsRoute} from "../completions/createCompletionsRoute.ts";
import {LocalEngine, type LocalEngineOptions} from "../engine/LocalEngine.ts";
import {HttpServer} from "../http/HttpServer.ts";
import type {Route} from "../http/Route.ts";
import {unixSeconds} from "../engine/utils/makeId.ts";
import {createDecisionRoutes} from "../decisions/createDecisionRoutes.ts";
import {LlamaDecisionEngine} from "../decisions/LlamaDecisionEngine.ts";
import {createModelsRoutes} from "../models/createModelsRoutes.ts";
import {createResponsesRoute} from "../responses/createResponsesRoute.ts";

export type ServerOptions = LocalEngineOptions & {
    /** Model for `svc-1-decision`; the chat model when absent. */
    decisionModelPath?: string,
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
    const decisionEngine = options.decisionModelPath != null && options.decisionModelPath !== options.modelPath
        ? await LocalEngine.load({...options, modelPath: options.decisionModelPath}).catch(async (error) => {
            await engine.dispose();
            throw error;
        })
        : engine;
    const created = unixSeconds();
    const chatModels = chatModelVariants(engine.chatWrapper);
    const routes: Route[] = [
        // svc-1, and its reasoning-by-default variant when the model can think: each with models, chat and Responses.
        ...chatModels.flatMap((variant) => [
            ...createModelsRoutes(variant.id, chatModels.map((served) => served.id), created),
            createChatCompletionsRoute(engine, variant.id, variant),
            createResponsesRoute(engine, variant)
        ]),
        createCompletionsRoute(engine, modelIds.chat),
        ...createModelsRoutes(modelIds.decision, [modelIds.decision], created),
        ...createDecisionRoutes(new LlamaDecisionEngine(decisionEngine))
    ];
    const disposeEngines = async () => {
        if (decisionEngine !== engine) await decisionEngine.dispose();
        await engine.dispose();
    };
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
