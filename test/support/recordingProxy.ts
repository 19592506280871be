import {createServer, request as httpRequest} from "node:http";
import type {AddressInfo} from "node:net";
import path from "node:path";
import {spawnServer} from "./spawnServer.ts";

/** A request that crossed the proxy, its body parsed as JSON where it is JSON. */
export type ProxiedRequest = {method: string, path: string, body: unknown};

/**
 * An HTTP proxy on loopback in front of a real server that keeps every request it forwards, so a test reads what
 * actually reached the server (not what a client meant to send). Bodies are buffered whole; responses stream back.
 */
export async function startRecordingProxy(target: string): Promise<{url: string, requests: ProxiedRequest[], close(): Promise<void>}> {
    const base = new URL(target);
    const requests: ProxiedRequest[] = [];
    const server = createServer((incoming, outgoing) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () => {
            const raw = Buffer.concat(chunks);
            let body: unknown = raw.toString("utf8");
            try {
                body = JSON.parse(body as string);
            } catch {
                // Not JSON: kept as text.
            }
            requests.push({method: incoming.method ?? "", path: incoming.url ?? "", body});
            const forwarded = httpRequest({host: base.hostname, port: base.port, method: incoming.method, path: incoming.url, headers: {...incoming.headers, host: base.host}}, (answer) => {
                outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
                answer.pipe(outgoing);
            });
            forwarded.on("error", () => outgoing.destroy());
            forwarded.end(raw);
        });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const {port} = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () => new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        })
    };
}

/**
 * `svc-studio serve` on the built-in model (its own process, its library and data under `dir`) behind a recording
 * proxy: what a test's CLI runs send is read at `proxy.requests`.
 */
export async function startRecordedEngine(dir: string): Promise<{proxy: Awaited<ReturnType<typeof startRecordingProxy>>, close(): Promise<void>}> {
    const server = await spawnServer(["--models-dir", path.join(dir, "models"), "--data-dir", path.join(dir, "data"), "--threads", "1", "--gpu", "off"]);
    const proxy = await startRecordingProxy(server.url);
    return {proxy, close: async () => {
        await proxy.close();
        await server.close();
    }};
}
