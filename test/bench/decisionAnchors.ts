import {getLlama, LlamaLogLevel, type DecisionQuestions} from "node-llama-cpp";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {LlamaDecisionEngine} from "../../native/decisions/LlamaDecisionEngine.ts";
import {LocalEngine} from "../../native/engine/LocalEngine.ts";
import {median} from "./measure.ts";

const sentence = "Once upon a time there was a little girl named Lily who liked to play with her red ball in the big green garden. ";
const colours = ["red", "green", "blue", "yellow"];

/**
 * Issue 16, decisions in questions/s on one document and one question set, in process:
 * (a) node-llama-cpp's own `LlamaDecisionContext` (yes/no as its "noul" questions, choices as "choice"), with its
 * default 4 parallel question sequences; (b) our engine with one option order, as node-llama-cpp asks; (c) our
 * product default, both option orders averaged. Against the prefill bound: the tokens our request read divided by
 * llama-bench's prompt-processing rate at the same threads (`promptRate`, when the anchor is built).
 */
export async function decisionAnchors(modelPath: string, threads: number, {questionCount = 32, rounds = 3, promptRate}: {questionCount?: number, rounds?: number, promptRate?: number} = {}) {
    const engine = await LocalEngine.load({modelPath, threads, gpu: "off", contextSize: 2048});
    let document = "";
    while (engine.model.tokenize(document).length < 500) document += sentence;
    const asked = Array.from({length: questionCount}, (_, index) => index % 2 === 0
        ? {type: "predicate", instructions: `Does the story mention thing number ${index}?`}
        : {type: "choice", instructions: `Which colour is thing number ${index}?`, choices: colours.map((value) => ({value}))});
    const theirQuestions: DecisionQuestions = Object.fromEntries(asked.map((question, index) => [`q${index}`, question.type === "predicate"
        ? {type: "noul", instruction: question.instructions}
        : {type: "choice", instruction: question.instructions, criteria: Object.fromEntries(colours.map((colour) => [colour, null]))}]));

    const llama = await getLlama({gpu: false, build: "never", maxThreads: threads, logLevel: LlamaLogLevel.error});
    const theirModel = await llama.loadModel({modelPath});
    const theirs = await theirModel.createDecisionContext({contextSize: 2048, threads});
    const oneOrder = new LlamaDecisionEngine(engine, {orderDebias: false});
    const bothOrders = new LlamaDecisionEngine(engine);
    const tokensRead = {one: 0, both: 0};
    // A fresh first word each run, so neither side reuses the previous run's cached document.
    const cases: Record<string, (run: number) => Promise<void>> = {
        "(a) node-llama-cpp LlamaDecisionContext": async (run) => {
            await theirs.decideWithMeta(`Story ${run}. ${document}`, theirQuestions);
        },
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
    let run = 0;
    for (const job of Object.values(cases)) await job(run++); // warm-up
    for (let round = 0; round < rounds; round++)
        for (const [name, job] of Object.entries(cases)) {
            const started = performance.now();
            await job(run++);
            seconds[name].push((performance.now() - started) / 1000);
        }
    const [a, b, c] = Object.values(seconds).map(median);
    console.log(`document ${engine.model.tokenize(document).length} tokens, ${questionCount} questions (half yes/no, half 4-option choice), threads ${threads}, median of ${rounds}`);
    for (const [name, time] of Object.keys(cases).map((name, index) => [name, [a, b, c][index]] as const))
        console.log(`${name.padEnd(44)}${time.toFixed(2).padStart(7)} s ${(questionCount / time).toFixed(1).padStart(8)} q/s`);
    console.log(`ours / node-llama-cpp, questions/s: one order ${(a / b).toFixed(2)}x, both orders ${(a / c).toFixed(2)}x`);
    if (promptRate != null) {
        for (const [label, time, tokens] of [["one order", b, tokensRead.one], ["both orders", c, tokensRead.both]] as const)
            console.log(`prefill bound (${label}): ${tokens} tokens read / ${promptRate.toFixed(0)} tok/s (llama-bench pp) = ${(tokens / promptRate).toFixed(2)} s; ours takes ${(time / (tokens / promptRate)).toFixed(2)}x the bound`);
    }
    await theirs.dispose();
    await theirModel.dispose();
    await llama.dispose();
    await engine.dispose();
}
