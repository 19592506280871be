import {test} from "node:test";
import assert from "node:assert/strict";
import type {LlamaContext, Token} from "node-llama-cpp";
import {useTinyModel} from "../../test/support/tinyModel.ts";
import {InlineDecode} from "./inlineDecode.ts";

// Short decodes run on the main thread, with the sampling of their plain next tokens in the same native call
// (`decodeBatchSync`, the C++ part of patches/node-llama-cpp+*.patch, compiled by `npm run build:engine`), and the
// JS part of the patch asks InlineDecode which decodes. Observed at the binding, not timed.
const tiny = useTinyModel();

type Binding = Record<string, (...args: unknown[]) => unknown>;

/** Counts the binding's calls; `withoutSync` hides decodeBatchSync and sampleTokenSync, as a prebuilt binding lacks them. */
function observe(context: LlamaContext, {withoutSync = false} = {}) {
    const binding = (context as unknown as {_ctx: Binding})._ctx;
    const seen = {sampleToken: 0, sampleTokenSync: 0, workerDecodes: 0, inlineDecodes: 0, sampledInline: 0, loopTurnsAtInline: [] as number[]};
    // Counts turns of the event loop: one setImmediate callback per turn.
    let loopTurns = 0;
    let stopped = false;
    const turn = () => {
        loopTurns++;
        if (!stopped) setImmediate(turn).unref();
    };
    setImmediate(turn).unref();
    const sampleToken = binding.sampleToken.bind(binding);
    const decodeBatch = binding.decodeBatch.bind(binding);
    const decodeBatchSync = binding.decodeBatchSync?.bind(binding);
    const sampleTokenSync = binding.sampleTokenSync?.bind(binding);
    Object.defineProperty(binding, "sampleToken", {value: (...args: unknown[]) => {
        seen.sampleToken++;
        return sampleToken(...args);
    }});
    Object.defineProperty(binding, "decodeBatch", {value: (...args: unknown[]) => {
        seen.workerDecodes++;
        return decodeBatch(...args);
    }});
    Object.defineProperty(binding, "decodeBatchSync", {value: withoutSync || decodeBatchSync == null ? undefined : (...args: unknown[]) => {
        seen.inlineDecodes++;
        seen.loopTurnsAtInline.push(loopTurns);
        const tokens = decodeBatchSync(...args) as Int32Array;
        seen.sampledInline += tokens.length;
        return tokens;
    }});
    Object.defineProperty(binding, "sampleTokenSync", {value: withoutSync || sampleTokenSync == null ? undefined : (...args: unknown[]) => {
        seen.sampleTokenSync++;
        return sampleTokenSync(...args);
    }});
    return {seen, stop: () => void (stopped = true)};
}

async function createContext(sequences = 1, decodeTiming?: InlineDecode): Promise<LlamaContext> {
    return tiny.model.createContext({contextSize: 1024, sequences, threads: {ideal: 1, min: 1}, flashAttention: false,
        batching: decodeTiming == null ? undefined : {decodeTiming}});
}

/** `count` tokens of one sequence; end-of-generation tokens are fed back like any other, so it always runs to count. */
async function generate(context: LlamaContext, prompt: string, count: number, options: {temperature?: number, seed?: number} = {}) {
    const sequence = context.getSequence();
    const tokens: Token[] = [];
    for await (const token of sequence.evaluate(tiny.model.tokenize(prompt), {yieldEogToken: true, ...options})) {
        tokens.push(token);
        if (tokens.length >= count) break;
    }
    sequence.dispose();
    return tokens;
}

/** The tokens node-llama-cpp gives without the patch's path (worker decodes, each token sampled on its own). */
async function referenceTokens(prompt: string, count: number, options: {temperature?: number, seed?: number} = {}) {
    const context = await createContext();
    try {
        const {seen, stop} = observe(context);
        const tokens = await generate(context, prompt, count, options);
        stop();
        assert.equal(seen.inlineDecodes, 0);
        assert.equal(seen.sampleToken, count);
        return tokens;
    } finally {
        await context.dispose();
    }
}

const patchedEngine = () => tiny.llama.buildType === "localBuild";
const notBuilt = "the patched engine is not built here (npm run build:engine; .ci/run builds it): the prebuilt binding is loaded";

test("InlineDecode: a batch size runs inline only once a decode of that size was seen to take under the limit", () => {
    const policy = new InlineDecode({maxInlineMs: 4});
    assert.equal(policy.inline(1), false, "never seen: a worker decode, timed");
    policy.measured(1, 0.4, false);
    assert.equal(policy.inline(1), true);
    assert.equal(policy.inline(2), false, "each size on its own");
    policy.measured(1, 6, true);
    assert.equal(policy.inline(1), false, "grew slower: back to the worker");
    assert.deepEqual(policy.counts, {inline: 1, worker: 1, sampledInline: 0, sampledOnWorker: 0});
    assert.deepEqual(policy.milliseconds, {decodes: 6.4, samplings: 0}, "both ways add up");
});

test("InlineDecode: a sampling runs inline once the last one took under its limit, while the inline ones since the event loop turned stay under the decode limit", async () => {
    const policy = new InlineDecode({maxInlineMs: 4, maxInlineSampleMs: 1});
    assert.equal(policy.sampleInline(), false, "none seen yet: a worker job, timed");
    policy.sampled(0.2, false);
    assert.equal(policy.sampleInline(), true);
    policy.sampled(0.9, true);
    assert.equal(policy.sampleInline(), true);
    policy.sampled(2, true);
    assert.equal(policy.sampleInline(), false, "grew slower: back to the worker");
    policy.sampled(0.1, false);
    assert.equal(policy.sampleInline(), true);
    for (let i = 0; i < 5; i++) policy.sampled(0.9, true);
    assert.equal(policy.sampleInline(), false, "7.4 ms of inline samplings without a turn of the event loop");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(policy.sampleInline(), true, "the event loop turned");
    assert.deepEqual(policy.counts, {inline: 0, worker: 0, sampledInline: 7, sampledOnWorker: 2});
    assert.ok(Math.abs(policy.milliseconds.samplings - 7.7) < 1e-9, `${policy.milliseconds.samplings} ms of samplings, both ways`);
});

test("with the patched engine, short decodes run inline and sample their tokens: the same tokens, the event loop turning between them", async (t) => {
    if (!patchedEngine()) return t.skip(notBuilt);
    for (const options of [{}, {temperature: 0.8, seed: 7}]) {
        const expected = await referenceTokens("once upon a time", 24, options);
        // No time limit, so what runs inline does not depend on how loaded the machine is.
        const context = await createContext(1, new InlineDecode({maxInlineMs: Infinity}));
        try {
            const {seen, stop} = observe(context);
            assert.deepEqual(await generate(context, "once upon a time", 24, options), expected, JSON.stringify(options));
            stop();
            // The prompt's decode and the first one-token decode are timed on the worker; every later one is inline.
            assert.equal(seen.workerDecodes, 2);
            assert.equal(seen.inlineDecodes, 22);
            assert.equal(seen.sampledInline, 22, "each inline decode sampled its token");
            assert.equal(seen.sampleToken, 2);
            const turns = seen.loopTurnsAtInline;
            for (let i = 1; i < turns.length; i++) assert.ok(turns[i] > turns[i - 1], `the event loop turned before inline decode ${i}`);
        } finally {
            await context.dispose();
        }
    }
});

test("with the patched engine, a decode dispatched on a later turn of the event loop does not wait for another", async (t) => {
    if (!patchedEngine()) return t.skip(notBuilt);
    // With a second, idle sequence node-llama-cpp dispatches each decode from a setImmediate, after I/O was polled.
    const context = await createContext(2, new InlineDecode({maxInlineMs: Infinity}));
    try {
        const {seen, stop} = observe(context);
        await generate(context, "once upon a time", 24);
        stop();
        const turns = seen.loopTurnsAtInline;
        const gaps = turns.slice(1).map((at, index) => at - turns[index]);
        assert.equal(gaps.length, 21);
        assert.ok(gaps.every((gap) => gap >= 1), `the event loop turned before every inline decode: ${gaps}`);
        assert.ok(gaps.filter((gap) => gap === 1).length >= 18, `one turn a step, not two: ${gaps}`);
    } finally {
        await context.dispose();
    }
});

test("with the patched engine, 4 generating sequences share their inline decodes", async (t) => {
    if (!patchedEngine()) return t.skip(notBuilt);
    const prompts = [0, 1, 2, 3].map((id) => `once upon a time ${id}`);
    const expected = [];
    for (const prompt of prompts) expected.push(await referenceTokens(prompt, 16));
    const context = await createContext(4, new InlineDecode({maxInlineMs: Infinity}));
    try {
        const {seen, stop} = observe(context);
        assert.deepEqual(await Promise.all(prompts.map((prompt) => generate(context, prompt, 16))), expected);
        stop();
        assert.equal(seen.sampleToken + seen.sampledInline, 4 * 16);
        assert.ok(seen.sampledInline > seen.inlineDecodes, `${seen.sampledInline} tokens sampled in ${seen.inlineDecodes} inline decodes`);
    } finally {
        await context.dispose();
    }
});

test("a token asked with its probabilities is sampled on its own: with the patched engine on the main thread once seen to be short", async () => {
    const probabilitiesOf = async (decodeTiming?: InlineDecode) => {
        const context = await createContext(1, decodeTiming);
        try {
            const {seen, stop} = observe(context);
            const sequence = context.getSequence();
            const items: Array<[Token, Array<[Token, number]>]> = [];
            for await (const item of sequence.evaluateWithMetadata(tiny.model.tokenize("once upon a time"), {probabilities: true}, {yieldEogToken: true})) {
                items.push([item.token, [...item.probabilities]]);
                if (items.length >= 8) break;
            }
            stop();
            assert.equal(seen.sampledInline, 0, "not with the decode");
            return {items, seen};
        } finally {
            await context.dispose();
        }
    };
    const reference = await probabilitiesOf();
    assert.equal(reference.seen.sampleToken, 8);
    assert.ok(reference.items.every(([, probabilities]) => probabilities.length > 0));
    const policy = new InlineDecode({maxInlineMs: Infinity, maxInlineSampleMs: Infinity});
    const timed = await probabilitiesOf(policy);
    assert.deepEqual(timed.items, reference.items, "the same tokens and probabilities");
    if (!patchedEngine()) {
        assert.equal(timed.seen.sampleToken, 8);
        return;
    }
    // The first is a worker job, timed; every later one runs on the main thread.
    assert.equal(timed.seen.sampleToken, 1);
    assert.equal(timed.seen.sampleTokenSync, 7);
    assert.deepEqual([policy.counts.sampledOnWorker, policy.counts.sampledInline], [1, 7]);
});

test("a binding without decodeBatchSync (node-llama-cpp's prebuilt ones) decodes on the worker and samples as before", async () => {
    const policy = new InlineDecode();
    const context = await createContext(1, policy);
    try {
        const {seen, stop} = observe(context, {withoutSync: true});
        assert.deepEqual(await generate(context, "once upon a time", 12), await referenceTokens("once upon a time", 12));
        stop();
        assert.equal(seen.inlineDecodes, 0);
        assert.equal(seen.workerDecodes, 12);
        assert.equal(seen.sampleToken, 12);
        assert.deepEqual(policy.counts, {inline: 0, worker: 12, sampledInline: 0, sampledOnWorker: 0});
    } finally {
        await context.dispose();
    }
});
