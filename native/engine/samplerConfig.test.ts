import {test} from "node:test";
import assert from "node:assert/strict";
import {TokenBias, type LlamaContextSequence, type Token} from "node-llama-cpp";
import {useTinyModel} from "../../test/support/tinyModel.ts";

// The JS part of patches/node-llama-cpp+*.patch resolves and applies a sampler config that cannot change
// between tokens once per evaluation instead of once per token (about 45 us a step of JavaScript with 4 sequences on
// stories260K). Without the patch every case below resolves the config once per token.
const tiny = useTinyModel();

type Options = Parameters<LlamaContextSequence["evaluate"]>[1];

/** `count` tokens of one evaluation, and how many times the sequence resolved its sampler config meanwhile. */
async function generate(prompt: string, count: number, options: Options) {
    const context = await tiny.model.createContext({contextSize: 512, threads: {ideal: 1, min: 1}, flashAttention: false});
    try {
        const sequence = context.getSequence();
        const internal = sequence as unknown as {_resolveSamplerConfig(...args: unknown[]): unknown};
        const resolve = internal._resolveSamplerConfig.bind(sequence);
        let resolved = 0;
        internal._resolveSamplerConfig = (...args) => {
            resolved++;
            return resolve(...args);
        };
        const tokens: Token[] = [];
        for await (const token of sequence.evaluate(tiny.model.tokenize(prompt), {yieldEogToken: true, ...options})) {
            tokens.push(token);
            if (tokens.length >= count) break;
        }
        return {tokens, resolved};
    } finally {
        await context.dispose();
    }
}

test("a seeded sampler config with no function inputs is resolved once per evaluation, and samples the same tokens", async () => {
    const sampling = {temperature: 0.9, topK: 20, seed: 11};
    const bias = new TokenBias(tiny.model.tokenizer);
    const fixed = await generate("once upon a time", 16, {...sampling, tokenBias: bias});
    assert.equal(fixed.resolved, 1);
    // A token bias given as a function may change between tokens, so that config is resolved for every token.
    const perToken = await generate("once upon a time", 16, {...sampling, tokenBias: () => bias});
    assert.equal(perToken.resolved, 16);
    assert.deepEqual(fixed.tokens, perToken.tokens);
});

test("a config that may change between tokens is still resolved for every token", async () => {
    // Without a seed node-llama-cpp seeds from the current second, so the config is not fixed.
    assert.equal((await generate("once upon a time", 8, {temperature: 0.9})).resolved, 8);
    const penalised = await generate("once upon a time", 8, {temperature: 0.9, seed: 3, repeatPenalty: {punishTokens: () => [], penalty: 1.1}});
    assert.equal(penalised.resolved, 8);
    // A fixed token list too: the native sampler rebuilds its penalty history from the config it is given.
    const fixedList = await generate("once upon a time", 8, {temperature: 0.9, seed: 3, repeatPenalty: {punishTokens: [5 as Token, 6 as Token], penalty: 1.1}});
    assert.equal(fixedList.resolved, 8);
});

test("a sampler allocates its vocabulary-sized candidates array at its first sampling, not when it is made", (t) => {
    // The change is in the addon's C++ (the patch), which only `npm run build:engine` compiles.
    if (tiny.llama.buildType !== "localBuild")
        return t.skip("the patched engine is not built here (npm run build:engine; .ci/run builds it): the prebuilt binding is loaded");
    // controlledEvaluate and prefill-only evaluations make a sampler and may never sample: a decision round that reads
    // its label logits directly paid about 2 ms for that array on a 151,936-token vocabulary (patch, AddonSampler.cpp).
    const vocabulary = (tiny.model.fileInfo.metadata as unknown as {tokenizer: {ggml: {tokens: unknown[]}}}).tokenizer.ggml.tokens.length;
    const candidatesBytes = vocabulary * 12; // llama_token_data: id, logit, p
    const count = Math.ceil(128e6 / candidatesBytes);
    const bindings = (tiny.llama as unknown as {_bindings: {AddonSampler: new (model: unknown) => {dispose(): void}}})._bindings;
    const before = process.memoryUsage().rss;
    const samplers = Array.from({length: count}, () => new bindings.AddonSampler((tiny.model as unknown as {_model: unknown})._model));
    const grown = process.memoryUsage().rss - before;
    for (const sampler of samplers) sampler.dispose();
    // Eager arrays would add 128 MB; the samplers themselves take well under a third of that.
    assert.ok(grown < 128e6 / 3, `${count} samplers grew the RSS by ${(grown / 1e6).toFixed(1)} MB (vocabulary ${vocabulary})`);
});
