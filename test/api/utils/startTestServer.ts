import OpenAI from "openai";
import {ensureTinyGguf} from "../../fixtures/gguf/ensureTinyGguf.ts";
import {startServer, type RunningServer, type ServerOptions} from "../../../native/startServer.ts";

export type TestServer = RunningServer & {
    /** `{url}/svc-1/v1`: the base address of the chat-family endpoints, as an OpenAI client takes it. */
    baseUrl: string,
    /** The key the client sends: the server's first key, or any key when the server has none. */
    apiKey: string,
    /** The official `openai` client pointed at this server, without retries so a refusal shows as it is. */
    client: OpenAI
};

/**
 * Starts the real server on 127.0.0.1 with a free port, CPU only and one thread (the 2-core test machine runs
 * one test file at a time), on the project's tiny ChatML GGUF unless another model is given.
 */
export async function startTestServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
    const modelPath = options.modelPath ?? await ensureTinyGguf();
    const server = await startServer({threads: 1, gpu: "off", host: "127.0.0.1", port: 0, parallel: 1, ...options, modelPath});
    const apiKey = options.apiKeys?.[0] ?? "ck_local_test";
    const baseUrl = `${server.url}/svc-1/v1`;
    return {
        url: server.url,
        engine: server.engine,
        close: () => server.close(),
        baseUrl,
        apiKey,
        client: new OpenAI({baseURL: baseUrl, apiKey, maxRetries: 0, timeout: 60_000})
    };
}
