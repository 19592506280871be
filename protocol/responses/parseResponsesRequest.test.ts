import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {pngHeader} from "../../test/fixtures/imageFixtures.ts";
import {formatPath, ValidationError} from "../validation.ts";
import {parseResponsesRequest} from "./parseResponsesRequest.ts";

const png = `data:image/png;base64,${Buffer.from(pngHeader(2, 3)).toString("base64")}`;

/** The problems of the ValidationError `body` raises, as `path: message` lines. */
function problemsOf(body: unknown): string[] {
    try {
        parseResponsesRequest(body);
    } catch (error) {
        assert.ok(error instanceof ValidationError, String(error));
        return error.problems.map((problem) => `${formatPath(problem.path)}: ${problem.message}`);
    }
    assert.fail("expected a ValidationError");
}

describe("parseResponsesRequest", () => {
    test("a string input is one user message; instructions come first as a system message", () => {
        const request = parseResponsesRequest({model: "svc-1", input: "Hi", instructions: "Be brief."});
        assert.deepEqual(request.messages, [{role: "system", content: "Be brief."}, {role: "user", content: "Hi"}]);
        assert.equal(request.instructions, "Be brief.");
        assert.equal(request.maxOutputTokens, undefined, "no default budget");
        assert.equal(request.stream, false);
    });

    test("messages with string or part content become chat messages", () => {
        const request = parseResponsesRequest({
            model: "svc-1",
            input: [
                {role: "developer", content: [{type: "input_text", text: "Rules"}]},
                {type: "message", role: "user", content: [{type: "input_text", text: "Look: "}, {type: "input_image", image_url: png, detail: "auto"}]},
                {role: "assistant", content: [{type: "output_text", text: "A ", annotations: []}, {type: "input_text", text: "dot."}]},
                {role: "user", content: "Thanks"}
            ],
            max_output_tokens: 5,
            temperature: 0.5,
            top_p: 0.9,
            chat_template_kwargs: {enable_thinking: true},
            stream: true
        });
        assert.deepEqual(request.messages, [
            {role: "system", content: "Rules"},
            {role: "user", content: [{type: "text", text: "Look: "}, {type: "image_url", image_url: {url: png, detail: "auto"}}]},
            {role: "assistant", content: "A dot."},
            {role: "user", content: "Thanks"}
        ]);
        assert.equal(request.maxOutputTokens, 5);
        assert.equal(request.temperature, 0.5);
        assert.equal(request.top_p, 0.9);
        assert.equal(request.chat_template_kwargs?.enable_thinking, true);
        assert.equal(request.stream, true);
    });

    test("an input_image without detail gets one schema error per shape checked, naming no field", () => {
        const problems = problemsOf({model: "svc-1", input: [{role: "user", content: [{type: "input_image", image_url: png}]}]});
        assert.deepEqual(problems, [
            "input: does not match the string input shape",
            "input[0].content[0]: does not match the input_text part shape",
            "input[0].content[0]: does not match the input_image part shape"
        ]);
        assert.ok(problems.every((problem) => !problem.includes("detail") && !problem.includes("required")));
    });

    test("the chat spellings are refused the same way", () => {
        for (const part of [{type: "text", text: "Hi"}, {type: "image_url", image_url: {url: png}}, {type: "input_image", image_url: {url: png}, detail: "auto"}]) {
            const problems = problemsOf({model: "svc-1", input: [{role: "user", content: [part]}]});
            assert.equal(problems.length, 3, JSON.stringify(part));
            assert.ok(problems.slice(1).every((problem) => problem.startsWith("input[0].content[0]: does not match the input_")));
        }
    });

    test("a system message may hold text parts only; malformed messages are shape errors", () => {
        assert.deepEqual(problemsOf({model: "svc-1", input: [{role: "system", content: [{type: "input_image", image_url: png, detail: "auto"}]}]}), [
            "input: does not match the string input shape",
            "input[0].content[0]: does not match the input_text part shape"
        ]);
        for (const item of [{role: "tool", content: "x"}, {role: "user"}, {type: "function_call", role: "user", content: "x"}, "Hi"])
            assert.deepEqual(problemsOf({model: "svc-1", input: [item]}), [
                "input: does not match the string input shape",
                "input[0]: does not match the message item shape"
            ]);
        assert.equal(problemsOf({model: "svc-1", input: 42}).length, 2);
        assert.deepEqual(problemsOf({model: "svc-1", input: []}), ["input: must hold at least one message"]);
    });

    test("image URLs must be inline images", () => {
        const withUrl = (url: string) => problemsOf({model: "svc-1", input: [{role: "user", content: [{type: "input_image", image_url: url, detail: "high"}]}]});
        assert.match(withUrl("https://example.com/cat.png")[0], /^input\[0\]\.content\[0\]\.image_url: only inline data URLs .* are accepted, not https URLs$/);
        assert.match(withUrl("data:image/png;base64,aGVsbG8=")[0], /does not hold a readable image/);
        assert.match(withUrl("data:text/plain;base64,aGVsbG8=")[0], /must hold an image/);
    });

    test("budget, sampling and unsupported fields", () => {
        assert.deepEqual(problemsOf({model: "svc-1", input: "x", max_output_tokens: 0}), ["max_output_tokens: must be a positive integer, got 0"]);
        assert.deepEqual(problemsOf({model: "svc-1", input: "x", max_output_tokens: 1.5}), ["max_output_tokens: must be an integer, got number"]);
        assert.deepEqual(problemsOf({model: "svc-1", input: "x", temperature: 3}), ["temperature: must be at most 2, got 3"]);
        assert.deepEqual(problemsOf({input: "x"}), ["model: is required"]);
        assert.deepEqual(problemsOf({model: "svc-1"}), ["input: is required"]);
        assert.match(problemsOf({model: "svc-1", input: "x", previous_response_id: "resp_1"})[0], /^previous_response_id: .*self-contained/);
        assert.match(problemsOf({model: "svc-1", input: "x", text: {format: {type: "json_object"}}})[0], /^text\.format: .*no JSON mode/);
        assert.match(problemsOf({model: "svc-1", input: "x", tools: [{type: "function", name: "f"}]})[0], /^tools: /);
        assert.equal(parseResponsesRequest({model: "svc-1", input: "x", text: {format: {type: "text"}}, tools: []}).messages.length, 1);
    });
});
