// The local engine's label mass (`x_svc.label_mass`) checked against an independent softmax over the
// full vocabulary's logits: the same GGUF loaded in-process, each question's first round tokenized by the
// engine's prompt builders and evaluated fresh, every token's logit read back and softmaxed here, the label ids'
// probabilities summed and averaged over the two option orders, then compared with what the server answered (to
// its 2-decimal rounding). Runs on the project's tiny fixture and on the built-in stories260K model.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {fileURLToPath} from "node:url";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import type {NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {LlamaDecisionEngine, questionPresentations} from "../../native/decisions/LlamaDecisionEngine.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {disposeReference, loadReference, nextTokenLogits, type Reference} from "./utils/decisionReference.ts";

const model = "svc-1-decision";
const text = "Once upon a time there was a little cat with a red ball. The cat was happy and the day was green.";
const questions = [
    {type: "predicate", name: "happy", instructions: "Is the cat happy?"},
    {type: "choice", name: "colour", instructions: "Which colour is the ball?", choices: ["red", "green", "blue", "yellow"].map((value) => ({value}))},
    // 30 options: more than 26 letters, so the answer comes from nested rounds and the mass from the first one.
    {type: "choice", name: "nested", instructions: "Which option fits?", choices: Array.from({length: 30}, (_, index) => ({value: `option ${index}`}))},
    {type: "score", name: "mood", instructions: "How happy is the cat?", levels: ["sad", "calm", "happy"].map((label) => ({label}))}
];

const fixtures: Array<{name: string, modelPath: () => Promise<string>}> = [
    {name: "tiny fixture", modelPath: () => ensureTinyGguf()},
    {name: "stories260K", modelPath: async () => fileURLToPath(new URL("../../resources/models/stories260K.gguf", import.meta.url))}
];

/**
 * One round's mass: the round's tokens and label ids as the engine builds them (the stories260K vocabulary spells
 * "Yes" in pieces, so which ids mean a label is the engine's in-context resolution, checked against a recomputation
 * from labels in decisions.logits.test.ts), evaluated fresh in the reference, every logit softmaxed here
 * (max-shifted), the label ids' probabilities summed.
 */
async function independentRoundMass(reference: Reference, prompt: string, labels: string[]): Promise<number> {
    const {tokens, labelTokens} = await roundBuilder.roundTokens(text, prompt, labels);
    const logits = await nextTokenLogits(reference, tokens);
    const values = [...logits.values()];
    const max = values.reduce((best, value) => Math.max(best, value), -Infinity);
    const total = values.reduce((sum, value) => sum + Math.exp(value - max), 0);
    return [...new Set(labelTokens.flat())].reduce((sum, id) => sum + Math.exp(logits.get(id)! - max) / total, 0);
}

/** A question's mass as documented in LlamaDecisionEngine: its first round's, averaged over both option orders. */
async function independentMass(reference: Reference, question: NormalizedQuestion): Promise<number> {
    const presentations = questionPresentations(question, true);
    let sum = 0;
    for (const presentation of presentations) sum += await independentRoundMass(reference, presentation.rounds[0].prompt, presentation.rounds[0].labels);
    return sum / presentations.length;
}

/** Renders rounds exactly as the server's engine does (its tokens only; nothing is evaluated on the server's context). */
let roundBuilder: LlamaDecisionEngine;

for (const fixture of fixtures) {
    describe(`label mass (${fixture.name})`, () => {
        let server: TestServer;
        let reference: Reference;

        before(async () => {
            const modelPath = await fixture.modelPath();
            server = await startTestServer({modelPath});
            reference = await loadReference(modelPath);
            roundBuilder = new LlamaDecisionEngine(server.engine);
        });
        after(async () => {
            await server?.close();
            await disposeReference(reference);
        });

        const post = (endpoint: string, body: Record<string, unknown>) => callApi(server, {path: `/svc-1-decision/v1/${endpoint}`, body: {model, ...body}});

        test("x_svc.label_mass matches a softmax over the full vocabulary, per answer, without moving the answers", async () => {
            const asked = await post("decisions", {input: text, questions, x_svc: {label_mass: true}});
            assert.equal(asked.status, 200, asked.text.slice(0, 300));
            const masses: number[] = asked.json.x_svc.label_mass;
            assert.equal(masses.length, questions.length);

            const normalized = parseDecisionsRequest({model, input: text, questions}).questions;
            const expected: number[] = [];
            for (const question of normalized) expected.push(await independentMass(reference, question));
            // Rounded to hundredths (< 0.005) plus the float noise of a cached versus a fresh evaluation.
            masses.forEach((mass, index) => assert.ok(Math.abs(mass - expected[index]) <= 0.007,
                `${questions[index].name}: the server says ${mass}, the full softmax gives ${expected[index].toFixed(5)}`));
            // Teeth: the model's distribution leaves real mass outside the labels, so a mass of 1 (or one that is
            // only renormalised over the labels) would fail above.
            assert.ok(expected.some((mass) => mass < 0.9), `the masses ${expected.map((mass) => mass.toFixed(3))} are all close to 1 and test little`);

            // The flag only adds the diagnostic: without it there is no x_svc, and the answers are the same.
            const plain = await post("decisions", {input: text, questions});
            assert.equal(plain.status, 200);
            assert.equal(plain.json.x_svc, undefined);
            assert.deepEqual(plain.json.answers, asked.json.answers);
        });

        test("systemone keys the label mass by question name, beside explanations", async () => {
            const reply = await post("systemone", {state: text, questions: {happy: {type: "noul", instructions: "Is the cat happy?"}}, x_svc: {label_mass: true, explain: true}});
            assert.equal(reply.status, 200, reply.text.slice(0, 300));
            assert.deepEqual(Object.keys(reply.json.x_svc), ["explanations", "label_mass"]);
            const [question] = parseDecisionsRequest({model, input: text, questions: [{type: "predicate", instructions: "Is the cat happy?"}]}).questions;
            const expected = await independentMass(reference, question);
            assert.ok(Math.abs(reply.json.x_svc.label_mass.happy - expected) <= 0.007, `the server says ${reply.json.x_svc.label_mass.happy}, the full softmax gives ${expected}`);
        });

        test("a label_mass that is not a boolean is the endpoint's validation error", async () => {
            const decisions = await post("decisions", {input: text, questions, x_svc: {label_mass: "yes"}});
            assert.equal(decisions.status, 400);
            assert.equal(decisions.json.error.code, "invalid_request");
            assert.equal(decisions.json.error.param, "x_svc");
            assert.match(decisions.json.error.message, /x_svc\.label_mass/);
            const systemone = await post("systemone", {state: text, questions: {happy: {type: "noul"}}, x_svc: {label_mass: 1}});
            assert.equal(systemone.status, 422);
            assert.deepEqual(systemone.json.detail[0].loc, ["body", "x_svc", "label_mass"]);
        });
    });
}
