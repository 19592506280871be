import assert from "node:assert/strict";
import {test} from "node:test";
import {chatParamSpecs, checkParam, completionsParamSpecs, responsesParamSpecs, specsForTarget, type ParamTarget} from "./params.ts";

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

test("on the local engine the budgets are bounded by the loaded context and say so; on the service by its window", () => {
    const local = specsForTarget(chatParamSpecs, {kind: "local", contextSize: 2048});
    const budget = local.find((item) => item.key === "max_tokens")!;
    assert.equal(budget.help, "Output budget. Prompt + budget ≤ 2,048 (the loaded model's context); default 2048, lowered to what the prompt leaves.");
    assert.equal(checkParam(budget, 5000), "must be at most 2048");
    assert.equal(checkParam(local.find((item) => item.key === "max_completion_tokens")!, 2049), "must be at most 2048");
    const responses = specsForTarget(responsesParamSpecs, {kind: "local", contextSize: 4096}).find((item) => item.key === "max_output_tokens")!;
    assert.match(responses.help, /≤ 4,096 \(the loaded model's context\)/);
    assert.equal(specsForTarget(completionsParamSpecs, {kind: "local", contextSize: 512}).find((item) => item.key === "max_tokens")!.max, 512);

    const unknown = specsForTarget(chatParamSpecs, {kind: "local"}).find((item) => item.key === "max_tokens")!;
    assert.match(unknown.help, /the loaded model's context \(known once the engine runs\)/);
    assert.equal(checkParam(unknown, 5000), null, "no bound is claimed while the context is unknown");

    const remote = specsForTarget(chatParamSpecs, {kind: "remote"}).find((item) => item.key === "max_tokens")!;
    assert.equal(remote.help, "Output budget. Prompt + budget ≤ 131,072 (the service's window); default 2048.");
    assert.equal(checkParam(remote, 131_073), "must be at most 131072");
});

test("seed's help says what the connected server does with it", () => {
    const seedHelp = (target: ParamTarget) => specsForTarget(chatParamSpecs, target).find((item) => item.key === "seed")!.help;
    assert.match(seedHelp({kind: "local", contextSize: 2048}), /same output at any temperature/);
    assert.match(seedHelp({kind: "remote"}), /temperature 0 \(the service's rule\)/);
    assert.match(specsForTarget(completionsParamSpecs, {kind: "local"}).find((item) => item.key === "seed")!.help, /any temperature/);
});
