import {test} from "node:test";
import assert from "node:assert/strict";
import {resolveChatWrapper} from "node-llama-cpp";
import {useTinyModel} from "../../test/support/tinyModel.ts";
import {fewestTokens, longestTokenBytes, promptPieces, TokenLimitError, tokenizeLongText, tokenizePieces} from "./promptTokens.ts";

const tiny = useTinyModel();

/** Deterministic text of words, spaces and line breaks from the fixture's vocabulary and beyond it. */
function sampleText(length: number, seed = 7): string {
    const words = ["hello", "world", "the", "ball", "is", "red", "é", "<|im_end|>", "Once", "upon", "a", "time", "12345", "!!"];
    let state = seed;
    let text = "";
    while (text.length < length) {
        state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
        text += words[state % words.length] + (state % 13 === 0 ? "\n" : state % 29 === 0 ? "\n\n" : " ");
    }
    return text.slice(0, length);
}

test("the byte count bounds the token count from below (fewestTokens)", () => {
    const longest = longestTokenBytes(tiny.model);
    assert.ok(longest > 1 && longest < 64, `longest token ${longest} bytes`);
    assert.equal(longestTokenBytes(tiny.model), longest, "worked out once");
    for (const text of [sampleText(5_000), "x".repeat(5_000), " ".repeat(5_000), "hello".repeat(1_000), "é".repeat(2_000)]) {
        const tokens = tiny.model.tokenize(text, false).length;
        assert.ok(fewestTokens(tiny.model, Buffer.byteLength(text)) <= tokens, `${fewestTokens(tiny.model, Buffer.byteLength(text))} > ${tokens} for ${JSON.stringify(text.slice(0, 20))}`);
    }
});

test("a rendered chat prompt tokenizes as LlamaText.tokenize does", async () => {
    const chatWrapper = resolveChatWrapper(tiny.model);
    for (const user of ["Hi", sampleText(40_000), `a${"\n".repeat(3)}b`]) {
        const {contextText} = chatWrapper.generateContextState({chatHistory: [
            {type: "system", text: "Be brief."}, {type: "user", text: user}, {type: "model", response: []}
        ]});
        const tokens = await tokenizePieces(tiny.model, promptPieces(contextText), {limit: Infinity});
        assert.deepEqual(tokens, contextText.tokenize(tiny.model.tokenizer));
    }
});

test("a long text cut into chunks at line breaks gives the tokens of one call", async () => {
    const text = sampleText(200_000);
    assert.deepEqual(await tokenizeLongText(tiny.model, text, undefined, {limit: Infinity}), tiny.model.tokenize(text, false));
    assert.deepEqual(await tokenizeLongText(tiny.model, text, "trimLeadingSpace", {limit: Infinity}), tiny.model.tokenize(text, false, "trimLeadingSpace"));
});

test("tokenizing stops soon after the limit, without reading the rest of the text", async () => {
    const started = performance.now();
    await assert.rejects(tokenizeLongText(tiny.model, "hello ".repeat(1_000_000), undefined, {limit: 4_096}), (error: unknown) => {
        assert.ok(error instanceof TokenLimitError);
        assert.ok(error.atLeast > 4_096 && error.atLeast < 4_096 + 16_384, `stopped at ${error.atLeast}`);
        return true;
    });
    assert.ok(performance.now() - started < 500, `${(performance.now() - started).toFixed(0)} ms for a 6 MB text`);
});

test("a long text lets timers run between its chunks, and is tokenized once per memo", async () => {
    const text = "hello world\n".repeat(20_000);
    const memo = new Map();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    let tokens;
    try {
        tokens = await tokenizeLongText(tiny.model, text, undefined, {limit: Infinity, memo});
    } finally {
        clearInterval(timer);
    }
    assert.ok(ticks > 0, "timers ran while the long text was tokenized");
    assert.equal(memo.size, 1);
    assert.deepEqual(await tokenizeLongText(tiny.model, text, undefined, {limit: Infinity, memo}), tokens);
});
