import {existsSync} from "node:fs";
import os from "node:os";
import path from "node:path";
import {defaultThreads} from "../../native/engine/threads.ts";
import {embeddedModelPath} from "../../native/library/embeddedModel.ts";
import {ensureTinyGguf, writeTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {createJsonPoster} from "./postJson.ts";
import {spawnServer} from "../support/spawnServer.ts";

// Generation tokens/s at 1 thread up to every core, through the server as users run it, so the choice of the
// default thread count (native/engine/threads.ts defaultThreads) stays measured.

/** A random-weight llama of about 12M parameters (F32, ~47 MB): 40x stories260K, so compute weighs more than overhead. */
async function largerModel(): Promise<string> {
    const file = path.join(path.dirname(await ensureTinyGguf()), "bench-llama-12m-v1.gguf");
    if (!existsSync(file))
        await writeTinyGguf(file, {name: "bench 12M", embeddingLength: 512, blockCount: 4, feedForwardLength: 1408, headCount: 8, headCountKv: 4, contextLength: 2048, seed: 3});
    return file;
}

async function tokensPerSecond(modelPath: string, threads: number, requests: number, maxTokens: number): Promise<number> {
    const server = await spawnServer(["--model", modelPath, "--threads", String(threads), "--gpu", "off"]);
    try {
        const post = createJsonPoster(`${server.url}/svc-1/v1/completions`);
        const body = JSON.stringify({model: "svc-1", prompt: "Once upon a time", max_tokens: maxTokens, temperature: 0});
        await post(body); // warm-up
        let tokens = 0;
        const started = performance.now();
        for (let index = 0; index < requests; index++)
            tokens += ((await post(body)) as {usage: {completion_tokens: number}}).usage.completion_tokens;
        return tokens / ((performance.now() - started) / 1000);
    } finally {
        await server.close();
    }
}

export async function threadSweep(requests = 3, maxTokens = 128) {
    const cores = os.availableParallelism();
    for (const [name, modelPath] of [["stories260K", embeddedModelPath], ["random llama 12M", await largerModel()]] as const) {
        const rates: number[] = [];
        for (let threads = 1; threads <= cores; threads++) rates.push(await tokensPerSecond(modelPath, threads, requests, maxTokens));
        const line = rates.map((rate, index) => `${index + 1}: ${rate.toFixed(0)} tok/s (${(rate / rates[0]).toFixed(2)}x)`).join(", ");
        console.log(`${name}: ${line}; default ${defaultThreads(cores)} of ${cores} cores`);
    }
}
