import {getLlama, LlamaCompletion, LlamaLogLevel} from "node-llama-cpp";
import {format, measure} from "./measure.ts";
import {spawnServer} from "./spawnServer.ts";

const maxTokens = 64;
const rounds = 3;
const prompt = "Once upon a time, there was a little girl named Lily. She";

/**
 * Issue "Local engine part 1" benchmark: the same model and threads, (a) node-llama-cpp in process and (b) our HTTP
 * server, sequentially and with 4 concurrent clients, 64-token completions. Prints b/a (target >= 0.9).
 */
export async function httpVsInProcess(modelPath: string, threads: number, requests: number) {
    const parallel = 4;
    const llama = await getLlama({gpu: false, build: "never", maxThreads: threads, logLevel: LlamaLogLevel.error});
    const model = await llama.loadModel({modelPath});
    // The same context settings as the server's LocalEngine on CPU.
    const context = await model.createContext({contextSize: 2048, sequences: parallel, threads: {ideal: threads, min: 1}, flashAttention: false});
    const sequences = Array.from({length: parallel}, () => context.getSequence());
    const completions = sequences.map((contextSequence) => new LlamaCompletion({contextSequence}));
    const inProcess = (client: number) => async () => {
        const sequence = sequences[client];
        const before = sequence.tokenMeter.usedOutputTokens;
        await completions[client].generateCompletion(prompt, {maxTokens, temperature: 0});
        return sequence.tokenMeter.usedOutputTokens - before;
    };

    const server = await spawnServer(["--model", modelPath, "--threads", String(threads), "--gpu", "off", "--parallel", String(parallel), "--context-size", "2048"]);
    const overHttp = async () => {
        const response = await fetch(`${server.url}/svc-1/v1/completions`, {
            method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({model: "svc-1", prompt, max_tokens: maxTokens, temperature: 0})
        });
        const body = await response.json() as {usage: {completion_tokens: number}};
        return body.usage.completion_tokens;
    };

    // Warm both paths once so neither pays first-call costs inside the timing.
    await inProcess(0)();
    await overHttp();

    console.log(`\n${"case".padEnd(28)}${"tok/s (a)".padStart(10)}${"tok/s (b)".padStart(10)}${"req/s (a)".padStart(10)}${"req/s (b)".padStart(10)}   b/a`);
    for (const clients of [1, parallel]) {
        const perClient = Math.max(1, Math.round(requests / clients));
        // Alternate a and b over rounds and keep each one's best, so warm-up and machine noise favour neither.
        const best = (runs: Array<Awaited<ReturnType<typeof measure>>>) => runs.reduce((x, y) => y.tokensPerSecond > x.tokensPerSecond ? y : x);
        const aRuns = [], bRuns = [];
        for (let round = 0; round < rounds; round++) {
            aRuns.push(await measure(clients, perClient, (client) => inProcess(client)()));
            bRuns.push(await measure(clients, perClient, () => overHttp()));
        }
        const a = best(aRuns), b = best(bRuns);
        console.log(`${`${clients === 1 ? "sequential" : `${clients} concurrent clients`} x ${perClient}`.padEnd(28)}` +
            `${format(a.tokensPerSecond)} ${format(b.tokensPerSecond)} ${format(a.requestsPerSecond)} ${format(b.requestsPerSecond)}  ${(b.tokensPerSecond / a.tokensPerSecond).toFixed(2)}`);
    }

    await server.close();
    await context.dispose();
    await model.dispose();
    await llama.dispose();
}
