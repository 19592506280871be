import {spawn} from "node:child_process";
import {createServer} from "node:net";
import {ensureLlamaCpp, type LlamaCppTools} from "./llamaCpp.ts";

/** llama.cpp's own `llama-server` on a free loopback port: the third-party upstream engine of the upstream tests and bench. */
export type LlamaServer = {
    /** Its root, e.g. `http://127.0.0.1:PORT` (its OpenAI base URL is `${url}/v1`). */
    url: string,
    port: number,
    close(): Promise<void>
};

export async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const probe = createServer();
        probe.once("error", reject);
        probe.listen(0, "127.0.0.1", () => {
            const {port} = probe.address() as {port: number};
            probe.close(() => resolve(port));
        });
    });
}

/**
 * Starts `llama-server -m modelPath` (every layer on the tools' GPU, or CPU; no web UI), built first when it is not in the cache yet (ensureLlamaCpp:
 * about 15 minutes once on a fresh 2-core machine, so a caller's timeout must allow for it). `parallel` slots share
 * `contextSize` tokens (llama-server splits `-c` between them). Ready when `/health` answers 200.
 */
export async function startLlamaServer(modelPath: string, {threads = 1, parallel = 1, contextSize, tools, args = []}: {
    threads?: number, parallel?: number, contextSize?: number, tools?: LlamaCppTools,
    /** More llama-server flags, e.g. `["-fa", "off"]`. */
    args?: string[]
} = {}): Promise<LlamaServer> {
    const {server, gpu} = tools ?? await ensureLlamaCpp();
    const port = await freePort();
    const child = spawn(server, ["-m", modelPath, "--host", "127.0.0.1", "--port", String(port), "-t", String(threads), "-tb", String(threads),
        "-np", String(parallel), ...(contextSize != null ? ["-c", String(contextSize)] : []), "-ngl", gpu === false ? "0" : "999", "--no-webui", "--log-disable", ...args],
    {stdio: ["ignore", "ignore", "pipe"]});
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => log = (log + chunk.toString()).slice(-4000));
    const url = `http://127.0.0.1:${port}`;
    const close = () => new Promise<void>((resolve) => {
        if (child.exitCode != null || child.signalCode != null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
    });
    for (let attempt = 0; ; attempt++) {
        if (child.exitCode != null) throw new Error(`llama-server exited with ${child.exitCode}:\n${log}`);
        const ready = await fetch(`${url}/health`).then((response) => response.status === 200, () => false);
        if (ready) break;
        if (attempt > 600) {
            await close();
            throw new Error(`llama-server did not become ready in 60 s:\n${log}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return {url, port, close};
}
