import {modelIds} from "../../protocol/limits.ts";
import {createChatCompletionsRoute} from "../chat/createChatCompletionsRoute.ts";
import {createCompletionsRoute} from "../completions/createCompletionsRoute.ts";
import {LocalEngine, type LocalEngineOptions} from "../engine/LocalEngine.ts";
import {HttpServer} from "../http/HttpServer.ts";
import type {Route} from "../http/Route.ts";
import {unixSeconds} from "../engine/utils/makeId.ts";
import {createModelsRoutes} from "../models/createModelsRoutes.ts";

export type ServerOptions = LocalEngineOptions & {
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
    const created = unixSeconds();
    const routes: Route[] = [
        ...createModelsRoutes(modelIds.chat, [modelIds.chat], created),
        createChatCompletionsRoute(engine, modelIds.chat),
        createCompletionsRoute(engine, modelIds.chat)
    ];
    const http = new HttpServer({routes, apiKeys: options.apiKeys ?? []});
    const host = options.host ?? "127.0.0.1";
    let address;
    try {
        address = await http.listen(options.port ?? 8080, host);
    } catch (error) {
        await engine.dispose();
        throw error;
    }
    const urlHost = address.host.includes(":") ? `[${address.host}]` : address.host;
    return {
        url: `http://${urlHost}:${address.port}`,
        engine,
        async close() {
            await http.close();
            await engine.dispose();
        }
    };
}
