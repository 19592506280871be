import assert from "node:assert/strict";
import {test} from "node:test";
import {asksForScores, echoedCountsNote, generationRate, scoredTokensNote} from "./runNumbers.ts";

const streamed = {stream: true, stream_options: {include_usage: true}};

test("tokens/s: the tokens after the first over the time from the first token to the end of a streamed run", () => {
    const rate = generationRate({timing: {firstTokenMs: 100, totalMs: 1100}, request: streamed}, {completion_tokens: 51});
    assert.deepEqual(rate, {tokensPerSecond: 50});
    assert.deepEqual(generationRate({timing: {firstTokenMs: 100, totalMs: 600}, request: {stream: true}}, {output_tokens: 11}), {tokensPerSecond: 20});
});

test("tokens/s is not measurable when the stream was scored: its tokens arrive together once scored", () => {
    // The scored stream's tokens arrived within a millisecond: 29 tokens in 2.4 ms would read 11,667 tok/s.
    const timing = {firstTokenMs: 900, totalMs: 902.4};
    for (const request of [{...streamed, logprobs: true, top_logprobs: 2}, {stream: true, logprobs: 3}, {stream: true, include: ["message.output_text.logprobs"]}]) {
        const rate = generationRate({timing, request}, {completion_tokens: 29});
        assert.ok(rate != null && "unmeasured" in rate, JSON.stringify(request));
        assert.match((rate as {unmeasured: string}).unmeasured, /scored/);
    }
});

test("tokens/s is not measurable for an unstreamed run or a single token, and absent without usage", () => {
    assert.match((generationRate({timing: {totalMs: 500}, request: {max_tokens: 8}}, {completion_tokens: 8}) as {unmeasured: string}).unmeasured, /Not streamed/);
    assert.match((generationRate({timing: {firstTokenMs: 10, totalMs: 20}, request: streamed}, {completion_tokens: 1}) as {unmeasured: string}).unmeasured, /Fewer than two/);
    assert.equal(generationRate({timing: {firstTokenMs: 10, totalMs: 20}, request: streamed}, undefined), undefined);
});

test("which requests ask for token scores", () => {
    assert.equal(asksForScores({logprobs: true}), true);
    assert.equal(asksForScores({logprobs: 0}), true);
    assert.equal(asksForScores({logprobs: false}), false);
    assert.equal(asksForScores({include: ["message.output_text.logprobs"]}), true);
    assert.equal(asksForScores({include: []}), false);
    assert.equal(asksForScores(undefined), false);
});

test("the token view says what usage counts beyond the scored text, and only when the two can be compared", () => {
    assert.equal(scoredTokensNote(29, {completion_tokens: 29}), null);
    assert.equal(scoredTokensNote(25, {completion_tokens: 29}),
        "completion_tokens is 29: it also counts 4 output tokens not in the scored text (a stop sequence, the end-of-turn token, reasoning or a regenerated attempt)");
    assert.match(scoredTokensNote(5, {output_tokens: 6}) ?? "", /^output_tokens is 6: it also counts 1 output token not/);
    // Usage covers every choice together; an echoed prompt is scored but is not output.
    assert.equal(scoredTokensNote(10, {completion_tokens: 25}, {choices: 2}), null);
    assert.equal(scoredTokensNote(14, {completion_tokens: 8}, {echoed: true}), null);
    assert.equal(scoredTokensNote(10, undefined), null);
});

test("a scored prompt's counts are said: its chips, the scored ones, and what prompt_tokens adds", () => {
    assert.equal(echoedCountsNote(26, 25, {prompt_tokens: 27}),
        "26 tokens of the prompt, 25 scored (the first has nothing before it to score against); prompt_tokens 27 also counts 1 token the model adds before the text (start of text)");
    assert.equal(echoedCountsNote(3, 3, {prompt_tokens: 3}), "3 tokens of the prompt, 3 scored");
});
