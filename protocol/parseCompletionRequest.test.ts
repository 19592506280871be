import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {ValidationError, type FieldPath} from "./validation.ts";
import {maxPrompts, parseCompletionRequest} from "./completions.ts";

const base = {model: "svc-1", prompt: "Once upon a time"};
const parse = (change: Record<string, unknown> = {}) => parseCompletionRequest({...base, ...change});

function assertInvalid(change: Record<string, unknown>, path: FieldPath) {
    assert.throws(() => parse(change), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.deepEqual(error.path, path);
        return true;
    });
}

describe("parseCompletionRequest", () => {
    test("a minimal request: one prompt, chat's default budget, one choice, no echo, no stream", () => {
        const request = parse();
        assert.equal(request.model, "svc-1");
        assert.deepEqual(request.prompts, ["Once upon a time"]);
        assert.equal(request.maxTokens, 2048);
        assert.equal(request.maxTokensExplicit, false);
        assert.equal(request.n, 1);
        assert.equal(request.echo, false);
        assert.equal(request.stream, false);
    });

    test("prompt is a string or a non-empty array of strings", () => {
        assert.deepEqual(parse({prompt: ["a", "b", ""]}).prompts, ["a", "b", ""]);
        assert.deepEqual(parse({prompt: ""}).prompts, [""]);
        assertInvalid({prompt: undefined}, ["prompt"]);
        assertInvalid({prompt: 5}, ["prompt"]);
        assertInvalid({prompt: []}, ["prompt"]);
        assertInvalid({prompt: ["a", 5]}, ["prompt", 1]);
        assertInvalid({prompt: [[1, 2]]}, ["prompt", 0]);
    });

    test("at most 2048 prompts (100,000 were accepted)", () => {
        assert.equal(parse({prompt: Array(maxPrompts).fill("a")}).prompts.length, 2048);
        assertInvalid({prompt: Array(maxPrompts + 1).fill("a")}, ["prompt"]);
        assert.throws(() => parse({prompt: Array(100_000).fill("a")}), /holds 100000 prompts; at most 2048 are allowed/);
    });

    test("max_tokens is an explicit positive integer budget", () => {
        const request = parse({max_tokens: 12});
        assert.equal(request.maxTokens, 12);
        assert.equal(request.maxTokensExplicit, true);
        for (const value of [0, -3, 2.5, "12"]) assertInvalid({max_tokens: value}, ["max_tokens"]);
    });

    test("n, echo, stream, stream_options and sampling", () => {
        const request = parse({n: 2, echo: true, stream: true, stream_options: {include_usage: true}, temperature: 0.5, seed: 4, stop: "\n"});
        assert.equal(request.n, 2);
        assert.equal(request.echo, true);
        assert.equal(request.stream, true);
        assert.deepEqual(request.stream_options, {include_usage: true});
        assert.equal(request.temperature, 0.5);
        assert.equal(request.seed, 4);
        assert.deepEqual(request.stop, ["\n"]);
        assertInvalid({n: 0}, ["n"]);
        assertInvalid({echo: 1}, ["echo"]);
        assertInvalid({stream: "yes"}, ["stream"]);
        assertInvalid({stream_options: {include_usage: true}}, ["stream_options"]);
        assertInvalid({temperature: 5}, ["temperature"]);
        assertInvalid({top_p: -1}, ["top_p"]);
        assertInvalid({presence_penalty: "x"}, ["presence_penalty"]);
    });

    test("model is a required string and the body an object", () => {
        assertInvalid({model: undefined}, ["model"]);
        assertInvalid({model: ["svc-1"]}, ["model"]);
        assert.throws(() => parseCompletionRequest("prompt"), ValidationError);
    });
});
