import assert from "node:assert/strict";
import {test} from "node:test";
import {chatParamSpecs, checkParam} from "./params.ts";

const spec = (key: string) => chatParamSpecs.find((item) => item.key === key)!;

test("flags what the server's validators reject, and nothing else", () => {
    assert.equal(checkParam(spec("temperature"), 2), null);
    assert.equal(checkParam(spec("temperature"), 2.1), "must be at most 2");
    assert.equal(checkParam(spec("top_p"), -0.1), "must be at least 0");
    assert.equal(checkParam(spec("max_tokens"), 0), "must be at least 1");
    assert.equal(checkParam(spec("max_tokens"), 131_073), "must be at most 131072");
    assert.equal(checkParam(spec("n"), 1.5), "must be an integer");
    assert.equal(checkParam(spec("stop"), ["a", "b", "c", "d", "e"]), "at most 4 sequences");
    assert.equal(checkParam(spec("stop"), ["a", ""]), "sequences must not be empty");
    assert.equal(checkParam(spec("reasoning_effort"), "high"), "must be one of low, medium, xhigh");
    assert.equal(checkParam(spec("reasoning_effort"), "xhigh"), null);
    assert.equal(checkParam(spec("seed"), undefined), null);
});

test("every spec 2.1 value field has a control", () => {
    const keys = new Set(chatParamSpecs.map((item) => item.key));
    for (const key of ["max_tokens", "max_completion_tokens", "temperature", "top_p", "seed", "stop", "n", "presence_penalty", "frequency_penalty",
        "include_reasoning", "enable_thinking", "reasoning_effort", "thinking_token_budget", "stream", "include_usage"])
        assert.ok(keys.has(key), key);
});
