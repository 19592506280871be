import assert from "node:assert/strict";
import {after, before, describe, test} from "node:test";
import {getLlama, LlamaLogLevel, TokenBias, type Llama, type LlamaModel, type Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import {embeddedModelPath} from "../library/embeddedModel.ts";
import {locateOutputTokens, recordTokenLogprobs, scoreTokens, toLegacyLogprobs, toTokenLogprobs} from "./tokenProbabilities.ts";
import {InlineDecode} from "./inlineDecode.ts";

const tokens = (...ids: number[]) => ids as Token[];

test("output tokens are found after the prompt; the last sampled one, never evaluated, sits at the end", () => {
    // prompt 1 2 3, then 7 8 9 sampled: the sequence holds 7 and 8 only.
    assert.deepEqual(locateOutputTokens(tokens(1, 2, 3, 7, 8), 3, tokens(7, 8, 9)),
        [{position: 3, token: 7}, {position: 4, token: 8}, {position: 5, token: 9}]);
});

test("tokens that were not emitted as content (reasoning) are skipped, and prompt tokens are never matched", () => {
    // prompt 5 6, then thought 6 6 and content 5 6 sampled (the last not evaluated).
    assert.deepEqual(locateOutputTokens(tokens(5, 6, 6, 6, 5), 4, tokens(5, 6)),
        [{position: 4, token: 5}, {position: 5, token: 6}]);
});

test("tokens that cannot be matched are a 500, never scores at wrong positions", () => {
    assert.throws(() => locateOutputTokens(tokens(1, 2, 3), 1, tokens(8, 9)), (error) => error instanceof ApiError && error.status === 500);
});

describe("on the built-in stories260K: token texts on a SentencePiece vocabulary, and logprobs read during generation", () => {
    const loaded = {} as {llama: Llama, model: LlamaModel};
    before(async () => {
        loaded.llama = await getLlama({gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error});
        loaded.model = await loaded.llama.loadModel({modelPath: embeddedModelPath});
    });
    after(async () => {
        await loaded.model?.dispose();
        await loaded.llama?.dispose();
    });
    const scoredAs = (ids: readonly Token[]) => ids.map((token) => ({token, logprob: -1, top: [{token, logprob: -1}]}));

    test("a completion's pieces keep their word-start spaces and join into its text", () => {
        const {model} = loaded;
        const prompt = model.tokenize("Once upon a time");
        const output = model.tokenize(", there was a little", false, "trimLeadingSpace");
        const legacy = toLegacyLogprobs(model, output, scoredAs(output), {before: prompt});
        assert.deepEqual(legacy.tokens, [",", " there", " was", " a", " little"]);
        assert.equal(legacy.tokens.join(""), model.detokenize(output, false, prompt));
        assert.deepEqual(legacy.top_logprobs.map((top) => Object.keys(top!)), legacy.tokens.map((token) => [token]));
        const chat = toTokenLogprobs(model, scoredAs(output), {before: prompt});
        assert.deepEqual(chat.map((item) => item.token), legacy.tokens);
        assert.deepEqual(chat.map((item) => Buffer.from(item.bytes).toString()), legacy.tokens);
    });

    test("the first token of a text, with nothing before it, has no leading space", () => {
        const {model} = loaded;
        const prompt = model.tokenize("Once upon a time");
        assert.deepEqual(toLegacyLogprobs(model, prompt, prompt.map(() => null)).tokens, ["Once", " upon", " a", " time"]);
    });

    // Token logprobs read during generation (the patched engine's tokenLogprobsSync), against a second pass.
    /** A seeded, biased, hot generation of `count` tokens on a fresh sequence, with or without the recorder. */
    async function generate(record: boolean, decodeTiming?: InlineDecode, {failingReads = false} = {}) {
        const {model} = loaded;
        const context = await model.createContext({contextSize: 512, threads: {ideal: 1, min: 1}, flashAttention: false, batching: decodeTiming == null ? undefined : {decodeTiming}});
        if (failingReads) Object.defineProperty((context as unknown as {_ctx: object})._ctx, "tokenLogprobsSync", {value: () => {
            throw new Error("no logits at this batch position");
        }});
        const sequence = context.getSequence();
        const prompt = model.tokenize("Once upon a time", true);
        const recording = record ? recordTokenLogprobs(sequence, 3) : undefined;
        const output: Token[] = [];
        // A bias on the second-best first token, so sampling and the raw distribution visibly differ.
        const bias = new TokenBias(model.tokenizer);
        bias.set(model.tokenize(" there")[0], {logit: 2});
        for await (const token of sequence.evaluate(prompt, {temperature: 1.5, seed: 9, tokenBias: bias, yieldEogToken: true})) {
            output.push(token);
            if (output.length >= 24) break;
        }
        let passes = 0;
        const controlledEvaluate = sequence.controlledEvaluate.bind(sequence);
        sequence.controlledEvaluate = ((...args: Parameters<typeof controlledEvaluate>) => {
            passes++;
            return controlledEvaluate(...args);
        }) as typeof controlledEvaluate;
        const targets = output.map((token, index) => ({position: prompt.length + index, token}));
        const scores = await scoreTokens(sequence, [...prompt, ...output], targets, 3);
        recording?.stop();
        await context.dispose();
        return {output, scores, passes};
    }

    test("the same tokens and logprobs as a second pass, without the pass, on the worker path and inline", async () => {
        const reference = await generate(false);
        assert.equal(reference.passes, 1);
        for (const decodeTiming of [undefined, new InlineDecode({maxInlineMs: Infinity})]) {
            const recorded = await generate(true, decodeTiming);
            assert.deepEqual(recorded.output, reference.output, "recording changes nothing that is sampled");
            if (loaded.llama.buildType !== "localBuild") {
                assert.equal(recorded.passes, 1, "the prebuilt binding reads nothing during generation: the pass scores it all");
                continue;
            }
            assert.equal(recorded.passes, 0, "every token was read during generation");
            recorded.scores.forEach((score, index) => {
                const expected = reference.scores[index];
                assert.equal(score.token, expected.token);
                // Raw logprobs (the 1.5 temperature would move them by more than 1). Generation decodes one token at a
                // time, the pass all 24 at once: their logits differ by up to 1e-3 here, more at later positions.
                assert.ok(Math.abs(score.logprob - expected.logprob) < 5e-3, `token ${index}: ${score.logprob} against ${expected.logprob}`);
                assert.deepEqual(score.top.map((item) => item.token), expected.top.map((item) => item.token));
                score.top.forEach((item, rank) => assert.ok(Math.abs(item.logprob - expected.top[rank].logprob) < 5e-3,
                    `token ${index}, alternative ${rank}: ${JSON.stringify(score.top)} against ${JSON.stringify(expected.top)}`));
            });
        }
    });

    test("a token whose read fails is left to the second pass, and the generation goes on", async () => {
        const reference = await generate(false);
        for (const decodeTiming of [undefined, new InlineDecode({maxInlineMs: Infinity})]) {
            const failing = await generate(true, decodeTiming, {failingReads: true});
            assert.deepEqual(failing.output, reference.output);
            assert.equal(failing.passes, 1);
            assert.deepEqual(failing.scores, reference.scores);
        }
    });
});
