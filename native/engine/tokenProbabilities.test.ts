import assert from "node:assert/strict";
import {after, before, describe, test} from "node:test";
import {getLlama, LlamaLogLevel, type Llama, type LlamaModel, type Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import {embeddedModelPath} from "../library/embeddedModel.ts";
import {locateOutputTokens, toLegacyLogprobs, toTokenLogprobs} from "./tokenProbabilities.ts";

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

describe("token texts on a SentencePiece vocabulary (the built-in stories260K)", () => {
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
});
