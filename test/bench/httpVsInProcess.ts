import {getLlama, LlamaCompletion, LlamaLogLevel} from "node-llama-cpp";
import {format, measure, median} from "./measure.ts";
import {createJsonPoster} from "./postJson.ts";
import {spawnServer} from "../support/spawnServer.ts";

const maxTokens = 64;
const prompt = "Once upon a time, there was a little girl named Lily. She";

/**
 * Issue "Local engine part 1" benchmark: the same model and threads, (a) node-llama-cpp in process and (b) our HTTP
 * server, sequentially and with 4 concurrent clients, 64-token completions. Prints b/a (target >= 0.9).
 *
 * Wall times on a shared 2-core VM drift by +/-20% within a minute, so a, b and b' run in short interleaved rounds
 * and the ratio reported is the median of the per-round ratios: drift hits both sides of a round alike.
 */
export async function httpVsInProcess(modelPath: string, threads: number, requests: number, rounds: number) {
    const parallel = 4;
    const llama = await getLlama({gpu: false, build: "never", maxThreads: threads, logLevel: LlamaLogLevel.error});
    const model = await llama.loadModel({modelPath});
    // The same context settings as the server's LocalEngine on CPU.
    const context = await model.createContext({contextSize: 2048, sequences: parallel, threads: {ideal: threads, min: 1}, flashAttention: false});
    const sequences = Array.from({length: parallel}, () => context.getSequence());
    const completions = sequences.map((contextSequence) => new LlamaCompletion({contextSequence}));
    const inProcess = async (client: number) => {
        const sequence = sequences[client];
        const before = sequence.tokenMeter.usedOutputTokens;
        // The generation the server runs for this request: greedy, and no repeat penalty (OpenAI's presence and
        // frequency penalties default to 0, while node-llama-cpp's own default would penalise repeats).
        await completions[client].generateCompletion(prompt, {maxTokens, temperature: 0, repeatPenalty: false});
        return sequence.tokenMeter.usedOutputTokens - before;
    };

    const server = await spawnServer(["--model", modelPath, "--threads", String(threads), "--gpu", "off", "--parallel", String(parallel), "--context-size", "2048"]);
    const url = `${server.url}/svc-1/v1/completions`;
    const body = JSON.stringify({model: "svc-1", prompt, max_tokens: maxTokens, temperature: 0});
    const post = createJsonPoster(url);
    const overHttp = async () => ((await post(body)) as {usage: {completion_tokens: number}}).usage.completion_tokens;
    const overFetch = async () => {
        const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body});
        return ((await response.json()) as {usage: {completion_tokens: number}}).usage.completion_tokens;
    };

    // Warm every path once so none pays first-call costs inside the timing.
    await inProcess(0);
    await overHttp();
    await overFetch();

    console.log(`${rounds} interleaved rounds; medians. (b) node:http keep-alive client, (b') fetch (undici, as the openai client)`);
    console.log(`\n${"case".padEnd(28)}${"tok/s (a)".padStart(10)}${"tok/s (b)".padStart(10)}${"req/s (a)".padStart(10)}${"req/s (b)".padStart(10)}   b/a  b'/a`);
    for (const clients of [1, parallel]) {
        const perClient = Math.max(1, Math.round(requests / clients));
        type Run = Awaited<ReturnType<typeof measure>>;
        const a: Run[] = [], b: Run[] = [], bFetch: Run[] = [];
        for (let round = 0; round < rounds; round++) {
            a.push(await measure(clients, perClient, inProcess));
            b.push(await measure(clients, perClient, overHttp));
            bFetch.push(await measure(clients, perClient, overFetch));
        }
        const tokens = (runs: Run[]) => median(runs.map((run) => run.tokensPerSecond));
        const requestsPerSecond = (runs: Run[]) => median(runs.map((run) => run.requestsPerSecond));
        const ratio = (runs: Run[]) => median(runs.map((run, round) => run.tokensPerSecond / a[round].tokensPerSecond));
        console.log(`${`${clients === 1 ? "sequential" : `${clients} concurrent clients`} x ${perClient}`.padEnd(28)}` +
            `${format(tokens(a))} ${format(tokens(b))} ${format(requestsPerSecond(a))} ${format(requestsPerSecond(b))}  ` +
            `${ratio(b).toFixed(2)}  ${ratio(bFetch).toFixed(2)}`);
    }

    await server.close();
    await context.dispose();
    await model.dispose();
    await llama.dispose();
}
