import {getLlama, LlamaLogLevel, type DecisionQuestions} from "node-llama-cpp";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {LlamaDecisionEngine} from "../../native/decisions/LlamaDecisionEngine.ts";
import {LocalEngine} from "../../native/engine/LocalEngine.ts";
import {median} from "./measure.ts";
import {llamaBenchRates} from "./llamaServerBench.ts";
import type {LlamaCppTools} from "../support/llamaCpp.ts";
import {buildQuestionRounds} from "../../native/decisions/rounds.ts";
import {commonPrefixLength} from "../../native/engine/SequenceScheduler.ts";
import type {NormalizedDecisionRequest} from "../../protocol/decisions/types.ts";

const sentence = "Once upon a time there was a little girl named Lily who liked to play with her red ball in the big green garden. ";
const colours = ["red", "green", "blue", "yellow"];

/**
 * Decisions in questions/s on one document and one question set, in process:
 * (a) node-llama-cpp's own `LlamaDecisionContext` (yes/no as its "noul" questions, choices as "choice"), with its
 * default 4 parallel question sequences; (b) our engine with one option order, as node-llama-cpp asks; (c) our
 * product default, both option orders averaged. Against two prefill bounds, when llama-bench is built (`tools`):
 * - the issue's: the tokens our request read divided by llama-bench's prompt-processing rate on 512 tokens from an
 *   empty cache, at the same threads;
 * - the same reads at the same depths: the shared prefix at llama-bench's rate for that many tokens from an empty
 *   cache, plus the rounds' own tokens at its rate for a mean round's tokens on top of that prefix (`-d`). A round
 *   attends to the whole document before it: on stories260K a 77-token round on a 550-token prefix reads at 2,100
 *   tok/s against 3,100 for 512 tokens from empty, so the first bound asks for more than llama.cpp itself does.
 */
export type DecisionAnchorOptions = {questionCount?: number, rounds?: number, tools?: LlamaCppTools, withNodeLlamaCpp?: boolean};

export async function decisionAnchors(modelPath: string, threads: number, {questionCount = 32, rounds = 3, tools, withNodeLlamaCpp = true}: DecisionAnchorOptions = {}) {
    const gpu = tools?.gpu ?? false;
    const engine = await LocalEngine.load({modelPath, threads, gpu: gpu === false ? "off" : gpu, gpuLayers: gpu === false ? "auto" : "max", contextSize: 2048});
    let document = "";
    while (engine.model.tokenize(document).length < 500) document += sentence;
    const asked = Array.from({length: questionCount}, (_, index) => index % 2 === 0
        ? {type: "predicate", instructions: `Does the story mention thing number ${index}?`}
        : {type: "choice", instructions: `Which colour is thing number ${index}?`, choices: colours.map((value) => ({value}))});
    const theirQuestions: DecisionQuestions = Object.fromEntries(asked.map((question, index) => [`q${index}`, question.type === "predicate"
        ? {type: "noul", instruction: question.instructions}
        : {type: "choice", instruction: question.instructions, criteria: Object.fromEntries(colours.map((colour) => [colour, null]))}]));

    const their = withNodeLlamaCpp ? await loadTheirs(modelPath, threads, gpu) : undefined;
    const oneOrder = new LlamaDecisionEngine(engine, {orderDebias: false});
    const bothOrders = new LlamaDecisionEngine(engine);
    const tokensRead = {one: 0, both: 0};
    // A fresh first word each run, so neither side reuses the previous run's cached document.
    const cases: Record<string, (run: number) => Promise<void>> = {
        ...(their == null ? {} : {"(a) node-llama-cpp LlamaDecisionContext": async (run: number) => {
            await their.context.decideWithMeta(`Story ${run}. ${document}`, theirQuestions);
        }}),
        "(b) ours, one option order": async (run) => {
            const request = parseDecisionsRequest({model: "svc-1-decision", input: `Story ${run}. ${document}`, questions: asked});
            tokensRead.one = (await oneOrder.decide(request, new AbortController().signal)).usage.inputTokens;
        },
        "(c) ours, both orders (default)": async (run) => {
            const request = parseDecisionsRequest({model: "svc-1-decision", input: `Story ${run}. ${document}`, questions: asked});
            tokensRead.both = (await bothOrders.decide(request, new AbortController().signal)).usage.inputTokens;
        }
    };
    const seconds: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    // Our requests' time outside llama.cpp's decodes and samplings (as the engine awaited them): prompts, erasing,
    // batching, label reads. On a GPU, where a round's decode takes milliseconds, this is what to look at first.
    const outsideMs: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    const inEngine = () => engine.decodeTiming.milliseconds.decodes + engine.decodeTiming.milliseconds.samplings;
    let run = 0;
    for (const job of Object.values(cases)) await job(run++); // warm-up
    for (let round = 0; round < rounds; round++)
        for (const [name, job] of Object.entries(cases)) {
            const [started, engineBefore] = [performance.now(), inEngine()];
            await job(run++);
            const wall = performance.now() - started;
            seconds[name].push(wall / 1000);
            outsideMs[name].push(wall - (inEngine() - engineBefore));
        }
    const time = Object.fromEntries(Object.entries(seconds).map(([name, list]) => [name, median(list)]));
    console.log(`document ${engine.model.tokenize(document).length} tokens, ${questionCount} questions (half yes/no, half 4-option choice), threads ${threads}, median of ${rounds}`);
    for (const [name, value] of Object.entries(time))
        console.log(`${name.padEnd(44)}${value.toFixed(2).padStart(7)} s ${(questionCount / value).toFixed(1).padStart(8)} q/s`);
    const [theirTime, oneTime, bothTime] = [time["(a) node-llama-cpp LlamaDecisionContext"], time["(b) ours, one option order"], time["(c) ours, both orders (default)"]];
    if (theirTime != null) console.log(`ours / node-llama-cpp, questions/s: one order ${(theirTime / oneTime).toFixed(2)}x, both orders ${(theirTime / bothTime).toFixed(2)}x`);
    const outside = (name: string, roundCount: number) => `${(median(outsideMs[name]) / roundCount).toFixed(2)} ms`;
    console.log(`ours outside llama.cpp's decodes and samplings, a round: one order ${outside("(b) ours, one option order", questionCount)}, ` +
        `both orders ${outside("(c) ours, both orders (default)", 2 * questionCount)}`);

    if (tools != null) {
        const prefix = await sharedPrefixLength(oneOrder, parseDecisionsRequest({model: "svc-1-decision", input: `Story 0. ${document}`, questions: asked}));
        // A bound is the fastest llama.cpp reads: the best of 3 timed runs (a run on this shared VM can take 1.5x as long).
        const rateOf = async (promptTokens: number, depth = 0) => (await llamaBenchRates(tools, modelPath, threads, {promptTokens, generated: 0, depth, repetitions: 3, best: true})).pp;
        const fromEmpty = await rateOf(512);
        const prefixRate = await rateOf(prefix);
        // Every question here is one round per order (yes/no, or 4 options).
        for (const [label, seconds, tokens, roundCount] of [["one order", oneTime, tokensRead.one, questionCount], ["both orders", bothTime, tokensRead.both, 2 * questionCount]] as const) {
            const meanRound = Math.round((tokens - prefix) / roundCount);
            const roundRate = await rateOf(meanRound, prefix);
            const bound = tokens / fromEmpty;
            const sameDepths = prefix / prefixRate + (tokens - prefix) / roundRate;
            console.log(`prefill bound (${label}): ${tokens} tokens read / ${fromEmpty.toFixed(0)} tok/s (llama-bench pp512) = ${bound.toFixed(2)} s; ours takes ${(seconds / bound).toFixed(2)}x the bound`);
            console.log(`  the same reads at the same depths: ${prefix} prefix tokens at ${prefixRate.toFixed(0)} tok/s + ${roundCount} rounds of ${meanRound} ` +
                `on top at ${roundRate.toFixed(0)} tok/s (pp${meanRound} @ d${prefix}) = ${sameDepths.toFixed(2)} s; ours takes ${(seconds / sameDepths).toFixed(2)}x`);
        }
    }
    await their?.dispose();
    await engine.dispose();
}

async function loadTheirs(modelPath: string, threads: number, gpu: LlamaCppTools["gpu"]) {
    const llama = await getLlama({gpu, build: "never", maxThreads: threads, logLevel: LlamaLogLevel.error});
    const model = await llama.loadModel({modelPath, gpuLayers: gpu === false ? 0 : "max"});
    const context = await model.createDecisionContext({contextSize: 2048, threads});
    return {context, dispose: async () => {
        await context.dispose();
        await model.dispose();
        await llama.dispose();
    }};
}

/** The tokens every round of the request shares (the system prompt and the document), as the engine reads them. */
async function sharedPrefixLength(engine: LlamaDecisionEngine, request: NormalizedDecisionRequest): Promise<number> {
    const [first, second] = await Promise.all(request.questions.slice(0, 2).map((question) => {
        const [round] = buildQuestionRounds(question, question.options.map((_, index) => index)).rounds;
        return engine.roundTokens(request.text, round.prompt, round.labels);
    }));
    return commonPrefixLength(first.tokens, second.tokens);
}
