import {format, measure, median} from "./measure.ts";
import {createJsonPoster} from "./postJson.ts";
import {spawnServer} from "../support/spawnServer.ts";

const maxTokens = 64;
const prompt = "Once upon a time, there was a little girl named Lily. She";

/**
 * What token probabilities cost. The same 64-token greedy completions without logprobs, with
 * `logprobs: 5`, and with `logprobs: 5, echo: true`, in interleaved rounds on one server; prints tokens/s and
 * each scored case's median per-round ratio to the plain one. The plain path's own speed is the HTTP
 * comparison's (b/a) above, which must not move: a request without logprobs computes nothing extra.
 */
export async function logprobsBench(modelPath: string, threads: number, requests: number, rounds: number) {
    const server = await spawnServer(["--model", modelPath, "--threads", String(threads), "--gpu", "off", "--context-size", "2048"]);
    const post = createJsonPoster(`${server.url}/svc-1/v1/completions`);
    const job = (extra: Record<string, unknown>) => {
        const body = JSON.stringify({model: "svc-1", prompt, max_tokens: maxTokens, temperature: 0, ...extra});
        return async () => ((await post(body)) as {usage: {completion_tokens: number}}).usage.completion_tokens;
    };
    const cases = [["plain", job({})], ["logprobs: 5", job({logprobs: 5})], ["logprobs: 5, echo", job({logprobs: 5, echo: true})]] as const;
    for (const [, run] of cases) await run();

    type Run = Awaited<ReturnType<typeof measure>>;
    const runs: Run[][] = cases.map(() => []);
    for (let round = 0; round < rounds; round++)
        for (const [index, [, run]] of cases.entries()) runs[index].push(await measure(1, requests, run));
    console.log(`${rounds} interleaved rounds of ${requests} sequential requests; medians`);
    console.log(`${"case".padEnd(24)}${"tok/s".padStart(10)}  ratio to plain`);
    for (const [index, [name]] of cases.entries()) {
        const ratio = median(runs[index].map((run, round) => run.tokensPerSecond / runs[0][round].tokensPerSecond));
        console.log(`${name.padEnd(24)}${format(median(runs[index].map((run) => run.tokensPerSecond)))}  ${ratio.toFixed(2)}`);
    }
    await server.close();
}
