// The decision endpoints' numbers recomputed independently from the model's logits: the same GGUF loaded
// in-process with node-llama-cpp, each question round rendered with the engine's own prompt builders,
// evaluated fresh from an empty context (no shared prefix, plain default attention), label variants pooled,
// softmaxed, combined along nested label rounds and averaged over the two option orders by this file's own
// arithmetic, then compared with what the server answered (to its 2-decimal rounding). Also: reversing the
// options barely moves the answer, because both orders are asked. Runs on the project's tiny fixture and on
// a sharper variant of it (larger random weights), whose answers are far from uniform and position-biased,
// so a wrong mapping or a missing order would show.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import type {NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {LlamaDecisionEngine, questionPresentations} from "../../native/decisions/LlamaDecisionEngine.ts";
import type {LabelTreeNode} from "../../native/decisions/labelTree.ts";
import {ensureTinyGguf, writeTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {disposeReference, loadReference, roundLogits, type Reference} from "./utils/decisionReference.ts";

const model = "svc-1-decision";
const text = "Once upon a time there was a little cat with a red ball. The cat was happy and the day was green.";
const colours = ["red", "green", "blue", "yellow", "white", "black"];
const manyOptions = Array.from({length: 30}, (_, index) => `option ${index}`);
const questions = [
    {type: "predicate", instructions: "Is the cat happy?"},
    {type: "choice", instructions: "Which colour is the ball?", choices: colours.map((value) => ({value}))},
    // 30 options: more than 26 letters, so the answer comes from nested label rounds.
    {type: "choice", instructions: "Which option fits?", choices: manyOptions.map((value) => ({value}))},
    {type: "score", instructions: "How happy is the cat?", levels: ["sad", "calm", "content", "happy", "joyful"].map((label) => ({label}))}
];

const sharpPath = path.join(os.tmpdir(), `svc-decisions-sharp-${process.pid}.gguf`);
const fixtures: Array<{name: string, sharp: boolean, modelPath: () => Promise<string>}> = [
    {name: "tiny fixture", sharp: false, modelPath: () => ensureTinyGguf()},
    {name: "sharp fixture", sharp: true, modelPath: async () => {
        await writeTinyGguf(sharpPath, {weightScale: 0.6, seed: 7});
        return sharpPath;
    }}
];

after(async () => {
    await rm(sharpPath, {force: true});
});

// ---- the independent computation ----

/** Softmax over the labels' pooled logits (log of the summed exp of each label's variants), from a fresh evaluation of the whole prompt. */
async function roundProbabilities(reference: Reference, prompt: string, labels: string[]): Promise<number[]> {
    const {ids, logits} = await roundLogits(reference, text, prompt, labels);
    const pooled = ids.map((labelTokens) => Math.log(labelTokens.reduce((sum, id) => sum + Math.exp(logits.get(id)!), 0)));
    const total = pooled.reduce((sum, value) => sum + Math.exp(value), 0);
    return pooled.map((value) => Math.exp(value) / total);
}

/** P(option) per option index for one question: nested rounds multiply along the label path, the orders are averaged. */
async function independentDistribution(reference: Reference, question: NormalizedQuestion, orderDebias = true): Promise<number[]> {
    const result = new Array<number>(question.options.length).fill(0);
    const presentations = questionPresentations(question, orderDebias);
    for (const presentation of presentations) {
        const byNode = new Map<string, number[]>();
        for (const round of presentation.rounds) byNode.set(round.nodeKey, await roundProbabilities(reference, round.prompt, round.labels));
        const walk = (node: LabelTreeNode, pathProbability: number) => node.children.forEach((child, index) => {
            const probability = pathProbability * byNode.get(node.key)![index];
            if (child.node) walk(child.node, probability);
            else result[presentation.order[child.options[0]]] += probability / presentations.length;
        });
        walk(presentation.tree, 1);
    }
    return result;
}

const confidenceOf = (values: number[]) => (values.length * Math.max(...values) - 1) / (values.length - 1);

/**
 * Tolerances: probabilities are rounded to hundredths by largest remainder (off by < 0.01), P(yes) by plain
 * rounding (<= 0.005); on top of that, this fresh evaluation and the server's cached one differ by float noise
 * of the attention kernels (~1e-3 on the sharp model), hence 0.012, 0.007 and 0.005 for score and confidence.
 */
function assertClose(actual: number, expected: number, tolerance: number, what: string) {
    assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: the server says ${actual}, recomputed ${expected.toFixed(5)}`);
}

// ---- per model ----

for (const fixture of fixtures) {
    describe(`answers recomputed from the logits (${fixture.name})`, () => {
        let server: TestServer;
        let reference: Reference;

        before(async () => {
            const modelPath = await fixture.modelPath();
            server = await startTestServer({modelPath});
            reference = await loadReference(modelPath);
        });
        after(async () => {
            await server?.close();
            await disposeReference(reference);
        });

        const post = async (endpoint: string, body: Record<string, unknown>) => {
            const reply = await callApi(server, {path: `/svc-1-decision/v1/${endpoint}`, body: {model, ...body}});
            assert.equal(reply.status, 200, reply.text.slice(0, 300));
            return reply.json;
        };

        test("predicate, choice (flat and nested) and score match the recomputation to the rounding", async () => {
            const request = {input: text, questions};
            const response = await post("decisions", request);
            const normalized = parseDecisionsRequest({model, ...request}).questions;
            const [predicate, colour, nested, score] = response.answers;

            const yes = await independentDistribution(reference, normalized[0]);
            assertClose(predicate.probability, yes[0], 0.007, "P(yes)");

            for (const [answer, question] of [[colour, normalized[1]], [nested, normalized[2]]] as const) {
                const expected = await independentDistribution(reference, question);
                answer.probabilities.forEach((entry: any, index: number) => assertClose(entry.probability, expected[index], 0.012, `P(${entry.value})`));
                // The chosen option is the recomputed favourite (or ties with it within the float noise).
                const chosen = question.options.findIndex((option) => option.value === answer.choice);
                assert.ok(expected[chosen] >= Math.max(...expected) - 0.002, `chose ${answer.choice} at ${expected[chosen]}, favourite at ${Math.max(...expected)}`);
                assertClose(answer.confidence, confidenceOf(expected), 0.005, "confidence");
            }

            const levels = await independentDistribution(reference, normalized[3]);
            score.probabilities.forEach((entry: any, index: number) => assertClose(entry.probability, levels[index], 0.012, `P(level ${index})`));
            assertClose(score.score, levels.reduce((sum, value, index) => sum + index * value, 0), 0.005, "score");
            assertClose(score.confidence, confidenceOf(levels), 0.005, "confidence");

            if (fixture.sharp) {
                // Teeth: these answers are far from uniform, and asking in the given order only would be visibly off.
                assert.ok(Math.abs(yes[0] - 0.5) > 0.1, `P(yes) ${yes[0]} is too close to an even split to test anything`);
                const colours = await independentDistribution(reference, normalized[1]);
                assert.ok(Math.max(...colours) - Math.min(...colours) > 0.2, `colours ${colours} are too even`);
                const givenOrderOnly = await independentDistribution(reference, normalized[1], false);
                assert.ok(givenOrderOnly.some((value, index) => Math.abs(value - colours[index]) > 0.05), "one order alone should differ from the average");
            }
        });

        test("systemone: a noul question with criteria matches the recomputation of its own prompt", async () => {
            const criteria = {true: "the cat smiles", false: "the cat cries"};
            const response = await post("systemone", {state: text, questions: {happy: {type: "noul", instructions: "Is the cat happy?", criteria}}});
            const [question] = parseDecisionsRequest({model, input: text, questions: [{type: "predicate", instructions: "Is the cat happy?"}]}).questions;
            const withCriteria: NormalizedQuestion = {...question, options: [{...question.options[0], description: criteria.true}, {...question.options[1], description: criteria.false}]};
            const [yes] = await independentDistribution(reference, withCriteria);
            assertClose(response.answers.happy.noul, yes, 0.007, "P(yes)");
        });

        test("reversing the options gives the same probabilities (within 0.02): both orders are always asked", async () => {
            const ask = (values: string[]) => post("decisions", {input: text, questions: [{type: "choice", instructions: "Which colour is the ball?", choices: values.map((value) => ({value}))}]});
            const byValue = (response: any) => new Map(response.answers[0].probabilities.map((entry: any) => [entry.value, entry.probability]));
            const given = byValue(await ask(colours));
            const reversed = byValue(await ask([...colours].reverse()));
            for (const value of colours) assertClose(reversed.get(value) as number, given.get(value) as number, 0.02, `P(${value}) reversed`);

            if (fixture.sharp) {
                // Teeth: the same engine asking in one order only is moved by the reversal.
                const oneOrder = new LlamaDecisionEngine(server.engine, {orderDebias: false});
                const decide = async (values: string[]) => {
                    const request = parseDecisionsRequest({model, input: text, questions: [{type: "choice", instructions: "Which colour is the ball?", choices: values.map((value) => ({value}))}]});
                    const result = await oneOrder.decide(request, new AbortController().signal);
                    return new Map(request.questions[0].options.map((option, index) => [option.value, result.answers[0].probabilities[index]]));
                };
                const first = await decide(colours);
                const second = await decide([...colours].reverse());
                assert.ok(colours.some((value) => Math.abs(first.get(value)! - second.get(value)!) > 0.1), "without order averaging the sharp model is position-biased");
            }
        });
    });
}
