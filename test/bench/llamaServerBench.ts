import {execFile} from "node:child_process";
import {promisify} from "node:util";
import {format, measure, median} from "./measure.ts";
import {createJsonPoster} from "./postJson.ts";
import {spawnServer} from "../support/spawnServer.ts";
import type {LlamaCppTools} from "../support/llamaCpp.ts";
import {startLlamaServer} from "../support/startLlamaServer.ts";
import {flashAttentionFor} from "../../native/engine/LocalEngine.ts";

const parallel = 4;
const contextPerSequence = 2048;
const prompt = "Once upon a time, there was a little girl named Lily. She";

type Server = {name: string, completionsUrl: string, close(): Promise<void>};

/**
 * Flash attention as our engine sets it (`flashAttentionFor`): off on CPU, where llama-server's default "auto" would
 * turn it on, and llama.cpp's "auto" with a GPU.
 */
export function flashAttentionLike(tools: LlamaCppTools): "auto" | "off" {
    return flashAttentionFor(tools.gpu) === false ? "off" : "auto";
}

/**
 * llama.cpp's own server on the same file, threads and slots as ours: `-np 4` slots of 2,048 tokens each (llama-server
 * splits `-c` between its slots), on the tools' backend (every layer on the GPU, or CPU only), flash attention as ours.
 */
async function startTheirs(tools: LlamaCppTools, modelPath: string, threads: number): Promise<Server> {
    const server = await startLlamaServer(modelPath, {threads, parallel, contextSize: parallel * contextPerSequence, tools, args: ["-fa", flashAttentionLike(tools)]});
    return {name: "llama-server", completionsUrl: `${server.url}/v1/completions`, close: () => server.close()};
}

async function startOurs(modelPath: string, threads: number, gpu: LlamaCppTools["gpu"]): Promise<Server> {
    const server = await spawnServer(["--model", modelPath, "--threads", String(threads), "--gpu", gpu === false ? "off" : gpu, "--gpu-layers", gpu === false ? "auto" : "max",
        "--parallel", String(parallel), "--context-size", String(contextPerSequence)]);
    return {name: "svc-studio", completionsUrl: `${server.url}/svc-1/v1/completions`, close: () => server.close()};
}

type Usage = {prompt_tokens: number, completion_tokens: number};

/**
 * Generation against llama-server on the same model and threads, 1 and 4 concurrent clients, greedy
 * `/v1/completions` of `maxTokens`; then time to first token and prompt processing on a ~2,000-token prompt, and
 * llama-bench's kernel rates for reference. Rounds interleave the two servers and the reported ratio is the median
 * of per-round ratios, so the shared machine's drift hits both sides of a round alike.
 */
export async function llamaServerBench(tools: LlamaCppTools, model: {name: string, path: string}, threads: number, {rounds, maxTokens, requests}: {rounds: number, maxTokens: number, requests: number}) {
    const ours = await startOurs(model.path, threads, tools.gpu);
    const theirs = await startTheirs(tools, model.path, threads);
    const servers = [ours, theirs];
    const body = JSON.stringify({model: "svc-1", prompt, max_tokens: maxTokens, temperature: 0});
    const posters = servers.map((server) => createJsonPoster(server.completionsUrl));
    const shortfall = new Set<string>();
    const jobs = posters.map((post, index) => async () => {
        const {usage} = await post(body) as {usage: Usage};
        if (usage.completion_tokens < maxTokens) shortfall.add(`${servers[index].name}: ${usage.completion_tokens}/${maxTokens}`);
        return usage.completion_tokens;
    });
    for (const job of jobs) await job(); // warm-up

    console.log(`\n${model.name}: ${rounds} interleaved rounds, ${maxTokens}-token greedy completions; medians`);
    console.log(`${"case".padEnd(24)}${"tok/s ours".padStart(11)}${"tok/s l-s".padStart(11)}${"req/s ours".padStart(11)}${"req/s l-s".padStart(11)}  ours/l-s`);
    for (const clients of [1, parallel]) {
        const perClient = Math.max(1, Math.round(requests / clients));
        type Run = Awaited<ReturnType<typeof measure>>;
        const runs: Run[][] = [[], []];
        for (let round = 0; round < rounds; round++)
            for (const [index, job] of jobs.entries()) runs[index].push(await measure(clients, perClient, job));
        const tokens = (list: Run[]) => median(list.map((run) => run.tokensPerSecond));
        const perRequest = (list: Run[]) => median(list.map((run) => run.requestsPerSecond));
        const ratio = median(runs[0].map((run, round) => run.tokensPerSecond / runs[1][round].tokensPerSecond));
        console.log(`${`${clients} client${clients > 1 ? "s" : ""} x ${perClient}`.padEnd(24)}${format(tokens(runs[0]))}  ${format(tokens(runs[1]))}  ` +
            `${format(perRequest(runs[0]))}  ${format(perRequest(runs[1]))}     ${ratio.toFixed(2)}`);
    }
    if (shortfall.size > 0) console.log(`! stopped before the budget (end of text): ${[...shortfall].join(", ")}`);

    // Time to first token and prompt processing: a fresh ~2,000-token prompt each round (its first word differs, so
    // no slot or sequence reuses a cached prefix), streamed, 1 output token.
    const unit = "Once upon a time there was a little girl named Lily who liked to play in the big green garden. ";
    const promptTokensOf = async (text: string) => ((await posters[0](JSON.stringify({model: "svc-1", prompt: text, max_tokens: 1}))) as {usage: Usage}).usage.prompt_tokens;
    // Sized by the model's own tokenizer (stories260K reads nearly a token a character; real vocabularies far fewer).
    const perUnit = (await promptTokensOf(unit.repeat(10)) - await promptTokensOf(unit)) / 9;
    const longPrompt = (round: number) => `Tale ${round}. ` + unit.repeat(Math.floor(1990 / perUnit));
    const promptTokens = await promptTokensOf(longPrompt(-1));
    const firstToken = async (server: Server, text: string) => {
        const started = performance.now();
        const response = await fetch(server.completionsUrl, {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({model: "svc-1", prompt: text, max_tokens: 1, temperature: 0, stream: true})});
        const reader = response.body!.getReader();
        let firstAt = 0;
        for (;;) {
            const {done, value} = await reader.read();
            if (done) break;
            if (firstAt === 0 && new TextDecoder().decode(value).includes("data: {")) firstAt = performance.now();
        }
        return (firstAt - started) / 1000;
    };
    const ttft: number[][] = [[], []];
    for (let round = 0; round < rounds; round++)
        for (const [index, server] of servers.entries()) ttft[index].push(await firstToken(server, longPrompt(round * 2 + index)));
    const [oursTtft, theirsTtft] = ttft.map(median);
    console.log(`time to first token, ${promptTokens}-token prompt: ours ${(oursTtft * 1000).toFixed(0)} ms (${format(promptTokens / oursTtft).trim()} prompt tok/s), ` +
        `llama-server ${(theirsTtft * 1000).toFixed(0)} ms (${format(promptTokens / theirsTtft).trim()} tok/s); ours/l-s speed ${(theirsTtft / oursTtft).toFixed(2)}`);
    for (const server of servers) await server.close();
}

/**
 * llama-bench's prompt-processing and generation rates (tokens/s) on the file, at `threads`, on the tools' backend
 * with flash attention as ours; `depth` tokens already in the cache before the timed prompt (llama-bench `-d`). Each
 * rate is the median of `repetitions` timed runs, so one run slowed by the shared VM does not set it, or with `best`
 * the fastest (a bound).
 */
export async function llamaBenchRates(tools: LlamaCppTools, modelPath: string, threads: number,
    {promptTokens = 2000, generated = 64, depth = 0, repetitions = 2, best = false}: {promptTokens?: number, generated?: number, depth?: number, repetitions?: number, best?: boolean} = {}): Promise<{pp: number, tg: number | undefined}> {
    const {stdout} = await promisify(execFile)(tools.bench, ["-m", modelPath, "-t", String(threads), "-ngl", tools.gpu === false ? "0" : "999",
        "-fa", flashAttentionLike(tools), "-p", String(promptTokens), "-n", String(generated),
        "-d", String(depth), "-r", String(repetitions), "-o", "json"], {maxBuffer: 1 << 24});
    const results = JSON.parse(stdout) as Array<{n_prompt: number, n_gen: number, samples_ts: number[]}>;
    const rate = (result: {samples_ts: number[]} | undefined) => result == null ? undefined : best ? Math.max(...result.samples_ts) : median(result.samples_ts);
    return {pp: rate(results.find((result) => result.n_prompt > 0))!, tg: rate(results.find((result) => result.n_gen > 0))};
}
