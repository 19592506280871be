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
            assert.deepEqual(problemsOf({model: "svc-1", input: [item]}), itemShapeProblems);
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
        assert.equal(parseResponsesRequest({model: "svc-1", input: "x", text: {format: {type: "text"}}, tools: []}).messages.length, 1);
    });
});

const itemShapeProblems = [
    "input: does not match the string input shape",
    "input[0]: does not match the message item shape",
    "input[0]: does not match the function_call item shape",
    "input[0]: does not match the function_call_output item shape"
];

describe("parseResponsesRequest: tools (spec 2.5 in the Responses shapes)", () => {
    const parameters = {type: "object", properties: {city: {type: "string"}}, required: ["city"]};
    const weather = {type: "function", name: "get_weather", description: "Weather", parameters, strict: true};

    test("flat function tools and tool_choice become the chat forms the engine plans with", () => {
        const request = parseResponsesRequest({model: "svc-1", input: "x", tools: [weather, {type: "function", name: "now"}], tool_choice: {type: "function", name: "now"}});
        assert.deepEqual(request.tools, [
            {type: "function", function: {name: "get_weather", description: "Weather", parameters, strict: true}},
            {type: "function", function: {name: "now", description: undefined, parameters: undefined}}
        ]);
        assert.deepEqual(request.tool_choice, {type: "function", function: {name: "now"}});
        for (const choice of ["auto", "none", "required"] as const)
            assert.equal(parseResponsesRequest({model: "svc-1", input: "x", tools: [weather], tool_choice: choice}).tool_choice, choice);
    });

    test("bad tools and choices name the flat field at fault", () => {
        const problem = (body: Record<string, unknown>) => problemsOf({model: "svc-1", input: "x", ...body})[0];
        assert.equal(problem({tools: [{type: "function", function: {name: "f"}}]}), "tools[0].name: is required");
        assert.equal(problem({tools: [{type: "web_search"}]}), "tools[0].type: must be one of \"function\", got \"web_search\"");
        assert.match(problem({tools: [{...weather, name: "a b"}]}), /^tools\[0\]\.name: must be 1-64 characters/);
        assert.equal(problem({tools: [weather, weather]}), "tools[1].name: duplicates the function name \"get_weather\"");
        assert.equal(problem({tools: [{...weather, parameters: "{}"}]}), "tools[0].parameters: must be an object, got string");
        assert.equal(problem({tools: [{...weather, strict: "yes"}]}), "tools[0].strict: must be a boolean, got string");
        assert.equal(problem({tools: [weather], tool_choice: {type: "function", name: "nope"}}), "tool_choice.name: names no function in tools: \"nope\"");
        assert.equal(problem({tools: [weather], tool_choice: {type: "function", function: {name: "get_weather"}}}), "tool_choice.name: is required");
        assert.match(problem({tool_choice: "required"}), /^tool_choice: "required" needs at least one tool/);
    });

    test("forcing a call on a stream is refused (spec 2.5.2, 6.2); auto and none stream", () => {
        for (const tool_choice of ["required", {type: "function", name: "get_weather"}])
            assert.match(problemsOf({model: "svc-1", input: "x", tools: [weather], tool_choice, stream: true})[0], /^tool_choice: forcing a tool call is not supported on streaming requests/);
        for (const tool_choice of ["auto", "none"])
            assert.equal(parseResponsesRequest({model: "svc-1", input: "x", tools: [weather], tool_choice, stream: true}).stream, true);
    });

    test("function_call and function_call_output items become assistant tool calls and tool results", () => {
        const call = (call_id: string) => ({type: "function_call", id: `fc-${call_id}`, call_id, name: "get_weather", arguments: "{\"city\":\"Oslo\"}", status: "completed"});
        const request = parseResponsesRequest({
            model: "svc-1",
            input: [
                {role: "user", content: "Weather in Oslo and Lima?"},
                {role: "assistant", content: [{type: "output_text", text: "Checking.", annotations: []}]},
                call("call-1"),
                call("call-2"),
                {type: "function_call_output", call_id: "call-2", output: [{type: "input_text", text: "rain"}]},
                {type: "function_call_output", call_id: "call-1", output: "sun"},
                {role: "user", content: "Thanks"}
            ]
        });
        const toolCall = (id: string) => ({id, type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}});
        assert.deepEqual(request.messages, [
            {role: "user", content: "Weather in Oslo and Lima?"},
            {role: "assistant", content: "Checking.", tool_calls: [toolCall("call-1"), toolCall("call-2")]},
            {role: "tool", tool_call_id: "call-2", content: "rain"},
            {role: "tool", tool_call_id: "call-1", content: "sun"},
            {role: "user", content: "Thanks"}
        ]);
        assert.deepEqual(parseResponsesRequest({model: "svc-1", input: [{role: "user", content: "x"}, call("a")]}).messages[1], {role: "assistant", content: null, tool_calls: [toolCall("a")]});
    });

    test("an output must answer a call just before it; malformed call items are shape errors", () => {
        const call = {type: "function_call", call_id: "call-1", name: "get_weather", arguments: "{}"};
        const output = (call_id: string) => ({type: "function_call_output", call_id, output: "x"});
        assert.deepEqual(problemsOf({model: "svc-1", input: [{role: "user", content: "Hi"}, output("call-1")]}),
            ["input[1].call_id: \"call-1\" answers no tool call of the preceding assistant message"]);
        assert.deepEqual(problemsOf({model: "svc-1", input: [{role: "user", content: "Hi"}, call, output("call-2")]}),
            ["input[2].call_id: \"call-2\" answers no tool call of the preceding assistant message"]);
        for (const item of [{...call, arguments: {}}, {...call, call_id: undefined}, {type: "function_call_output", call_id: "call-1"}, {type: "item_reference", id: "fc-1"}])
            assert.deepEqual(problemsOf({model: "svc-1", input: [item]}), itemShapeProblems, JSON.stringify(item));
        assert.match(problemsOf({model: "svc-1", input: [{...call, name: "a b"}]})[0], /^input\[0\]\.name: must be 1-64 characters/);
        assert.deepEqual(problemsOf({model: "svc-1", input: [call, {...output("call-1"), output: [{type: "text", text: "x"}]}]}), [
            "input: does not match the string input shape",
            "input[1].output[0]: does not match the input_text part shape"
        ]);
    });

    test("a role named after an Object.prototype member is no role (\"toString\" was a 500, \"constructor\" a 200)", () => {
        for (const role of ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf"]) {
            const problems = problemsOf({model: "svc-1", input: [{role, content: "Hi"}]});
            assert.ok(problems.some((problem) => problem.startsWith("input[0]: does not match the message item shape")), `${role}: ${problems.join("; ")}`);
        }
    });
});
