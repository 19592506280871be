import {isDeepStrictEqual} from "node:util";
import {builtLlamaCpp} from "../support/llamaCpp.ts";
import {spawnServer} from "../support/spawnServer.ts";
import {startLlamaServer} from "../support/startLlamaServer.ts";
import {createJsonPoster} from "./postJson.ts";
import {median} from "./measure.ts";

const questionCount = 64;
const contextSize = 2048;
const text = Array.from({length: 12}, () => "Once upon a time there was a little girl named Lily who liked to play with her red ball in the big green garden.").join(" ");

type DecisionReply = {answers: unknown[], usage: {input_tokens: number}};

/**
 * Benchmark: decision questions per second through `svc-studio serve --upstream` in front of llama.cpp's
 * llama-server against the local engine, the same model file and threads, each server in its own process. One
 * request of 64 questions (half yes/no, half 4-option choice) on a ~300-token input; rounds alternate, median kept.
 * The front sends each round as its own one-token completion (token ids, logit_bias, post-sampling probabilities),
 * the first alone so the engine's prefix cache holds the shared input, the rest 4 at a time. Skipped, with the
 * reason printed, when llama-server has not been built (`npm run bench:llama-server`).
 */
export async function upstreamBench(model: {name: string, path: string}, threads: number, rounds = 5) {
    const tools = await builtLlamaCpp();
    if (tools == null) {
        console.log("skipped: llama-server is not built yet; `npm run bench:llama-server` builds it (about 15 minutes on 2 cores, then cached)");
        return;
    }
    const questions = Array.from({length: questionCount}, (_, index) => index % 2 === 0
        ? {type: "predicate", instructions: `Does the story mention thing number ${index}?`}
        : {type: "choice", instructions: `Which colour is thing number ${index}?`, choices: ["red", "green", "blue", "yellow"].map((value) => ({value}))});
    const body = JSON.stringify({model: "svc-1-decision", input: text, questions});

    for (const parallel of [1, 4]) {
        // Flash attention off, as the local engine has it on CPU (LocalEngine.ts): llama-server's default (auto) turns it
        // on, and its kernel made these 40-token round tails 3.4x slower (50 ms vs 15 ms each, measured here).
        const llama = await startLlamaServer(model.path, {threads, parallel, contextSize: parallel * contextSize, tools, args: ["-fa", "off"]});
        const local = await spawnServer(["--model", model.path, "--threads", String(threads), "--gpu", "off", "--context-size", String(contextSize), "--parallel", String(parallel)]);
        const front = await spawnServer(["--upstream", `${llama.url}/v1`, "--upstream-tokenizer", model.path]);
        try {
            const servers = {
                "local engine": createJsonPoster(`${local.url}/svc-1-decision/v1/decisions`),
                "front -> llama-server": createJsonPoster(`${front.url}/svc-1-decision/v1/decisions`)
            };
            const first: Record<string, DecisionReply> = {};
            for (const [name, post] of Object.entries(servers)) first[name] = await post(body) as DecisionReply; // warm-up
            const seconds: Record<string, number[]> = {"local engine": [], "front -> llama-server": []};
            for (let round = 0; round < rounds; round++)
                for (const [name, post] of Object.entries(servers)) {
                    const started = performance.now();
                    await post(body);
                    seconds[name].push((performance.now() - started) / 1000);
                }
            const [local_, through] = Object.values(seconds).map(median);
            console.log(`\n${model.name}, ${threads} thread(s), ${parallel} sequence(s)/slot(s): ${questionCount} questions, input ${first["local engine"].usage.input_tokens} tokens read locally, ` +
                `${first["front -> llama-server"].usage.input_tokens} by llama-server; ${rounds} rounds, median`);
            console.log(`  local engine            ${(questionCount / local_).toFixed(1).padStart(7)} questions/s (${local_.toFixed(2)} s)`);
            console.log(`  front -> llama-server   ${(questionCount / through).toFixed(1).padStart(7)} questions/s (${through.toFixed(2)} s)`);
            const gaps = answerGaps(first["local engine"].answers, first["front -> llama-server"].answers);
            console.log(`  front / local: ${(local_ / through).toFixed(2)}x the rate; answers identical to 2 decimals: ${gaps.equal} of ${questionCount}, ` +
                `largest probability difference ${gaps.largest.toFixed(2)}`);
        } finally {
            await front.close();
            await local.close();
            await llama.close();
        }
    }
}

/** How many answers are identical, and the largest gap between two rounded probabilities of the same option. */
function answerGaps(local: unknown[], through: unknown[]): {equal: number, largest: number} {
    const values = (answer: any): number[] => answer.probabilities?.map((entry: {probability: number}) => entry.probability) ?? [answer.probability];
    let largest = 0;
    local.forEach((answer, index) => values(answer).forEach((value, option) => largest = Math.max(largest, Math.abs(value - values(through[index])[option]))));
    return {equal: local.filter((answer, index) => isDeepStrictEqual(answer, through[index])).length, largest};
}
