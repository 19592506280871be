import assert from "node:assert/strict";
import {test} from "node:test";
import {parseChatCompletionRequest} from "../../../../protocol/chat/parseChatRequest.ts";
import {jpegHeader, pngHeader, toDataUrl} from "../../../../test/fixtures/imageFixtures.ts";
import {applyChatChunk, emptyReply, replyFromCompletion, buildChatRequest, defaultSchemaText, draftFromChatRequest, type ChatDraft} from "./chat.ts";

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({id: "c1", object: "chat.completion.chunk", model: "svc-1", choices, ...extra});

test("joins reasoning then content deltas per choice and keeps the finish reason", () => {
    const chunks = [
        chunk([{index: 0, delta: {role: "assistant", content: ""}, finish_reason: null}]),
        chunk([{index: 0, delta: {reasoning: "Let me "}, finish_reason: null}]),
        chunk([{index: 0, delta: {reasoning: "think."}, finish_reason: null}]),
        chunk([{index: 0, delta: {content: "Hello"}, finish_reason: null}]),
        chunk([{index: 1, delta: {content: "Other"}, finish_reason: null}]),
        chunk([{index: 0, delta: {content: " there"}, finish_reason: null}]),
        chunk([{index: 0, delta: {}, finish_reason: "stop"}]),
        chunk([{index: 1, delta: {}, finish_reason: "length"}]),
        chunk([], {usage: {prompt_tokens: 3, completion_tokens: 4, total_tokens: 7}})
    ];
    const reply = chunks.reduce(applyChatChunk, emptyReply());
    assert.equal(reply.id, "c1");
    assert.equal(reply.chunks, chunks.length);
    assert.deepEqual(reply.choices.map((choice) => [choice.index, choice.reasoning, choice.content, choice.finishReason]), [
        [0, "Let me think.", "Hello there", "stop"],
        [1, "", "Other", "length"]
    ]);
    assert.deepEqual(reply.usage, {prompt_tokens: 3, completion_tokens: 4, total_tokens: 7});
});

test("tool-call fragments are joined by index", () => {
    const reply = [
        chunk([{index: 0, delta: {tool_calls: [{index: 0, id: "call_a", type: "function", function: {name: "get_", arguments: ""}}]}}]),
        chunk([{index: 0, delta: {tool_calls: [{index: 0, function: {name: "weather", arguments: "{\"ci"}}]}}]),
        chunk([{index: 0, delta: {tool_calls: [{index: 1, id: "call_b", function: {name: "now", arguments: "{}"}}]}}]),
        chunk([{index: 0, delta: {tool_calls: [{index: 0, function: {arguments: "ty\":\"Oslo\"}"}}]}}]),
        chunk([{index: 0, delta: {}, finish_reason: "tool_calls"}])
    ].reduce(applyChatChunk, emptyReply());
    assert.deepEqual(reply.choices[0].toolCalls, [
        {id: "call_a", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}},
        {id: "call_b", type: "function", function: {name: "now", arguments: "{}"}}
    ]);
    assert.equal(reply.choices[0].finishReason, "tool_calls");
});

test("does not change the reply it is given", () => {
    const start = emptyReply();
    const next = applyChatChunk(start, chunk([{index: 0, delta: {content: "x"}}]));
    assert.deepEqual(start, emptyReply());
    assert.equal(next.choices[0].content, "x");
});

test("a non-streamed completion reads into the same shape, reasoning null kept as null", () => {
    const reply = replyFromCompletion({
        id: "c2", model: "svc-1",
        choices: [{index: 0, message: {role: "assistant", content: null, reasoning: null, tool_calls: [{id: "t", type: "function", function: {name: "f", arguments: "{}"}}]}, finish_reason: "tool_calls"}],
        usage: {prompt_tokens: 1, completion_tokens: 2, total_tokens: 3}
    });
    assert.deepEqual(reply.choices, [{index: 0, content: "", reasoning: null, toolCalls: [{id: "t", type: "function", function: {name: "f", arguments: "{}"}}], finishReason: "tool_calls"}]);
    assert.equal(reply.usage?.total_tokens, 3);
});

const draft = (over: Partial<ChatDraft> = {}): ChatDraft => ({
    systemPrompt: "",
    messages: [{id: "1", role: "user", content: "Hi", images: []}],
    params: {},
    toolsText: "",
    toolChoice: "",
    responseFormat: {mode: "none", schemaText: defaultSchemaText},
    ...over
});

const weatherTools = JSON.stringify([{type: "function", function: {name: "get_weather", parameters: {type: "object", properties: {}}}}]);

test("system prompt, messages and set parameters land where spec 2.1 puts them; the server accepts the body", () => {
    const {body, errors} = buildChatRequest(draft({
        systemPrompt: "Be brief.",
        params: {max_tokens: 64, temperature: 0, stop: ["\n\n"], enable_thinking: true, include_reasoning: false, stream: true, include_usage: true, seed: undefined}
    }));
    assert.deepEqual(errors, {});
    assert.deepEqual(body, {
        model: "svc-1",
        messages: [{role: "system", content: "Be brief."}, {role: "user", content: "Hi"}],
        max_tokens: 64,
        stop: ["\n\n"],
        temperature: 0,
        chat_template_kwargs: {enable_thinking: true},
        include_reasoning: false,
        stream: true,
        stream_options: {include_usage: true}
    });
    const parsed = parseChatCompletionRequest(body);
    assert.equal(parsed.maxTokens, 64);
    assert.equal(parsed.stream_options?.include_usage, true);
});

test("include_usage is left out without streaming (the server rejects stream_options then), and stream false is not sent", () => {
    const {body} = buildChatRequest(draft({params: {stream: false, include_usage: true}}));
    assert.equal("stream" in body, false);
    assert.equal("stream_options" in body, false);
    parseChatCompletionRequest(body);
});

test("images turn the content into text and image_url parts, in order", () => {
    const png = toDataUrl(pngHeader(4, 3));
    const jpeg = toDataUrl(jpegHeader(2, 2), "image/jpeg");
    const {body} = buildChatRequest(draft({messages: [{id: "1", role: "user", content: "What is this?", images: [
        {id: "a", name: "a.png", dataUrl: png}, {id: "b", name: "b.jpg", dataUrl: jpeg}
    ]}]}));
    assert.deepEqual((body.messages as unknown[])[0], {role: "user", content: [
        {type: "text", text: "What is this?"},
        {type: "image_url", image_url: {url: png}},
        {type: "image_url", image_url: {url: jpeg}}
    ]});
    parseChatCompletionRequest(body);
});

test("a tool-call turn: assistant message with tool_calls and content null, then the tool result", () => {
    const calls = [{id: "call_1", type: "function" as const, function: {name: "get_weather", arguments: "{\"city\":\"Paris\"}"}}];
    const {body} = buildChatRequest(draft({
        toolsText: weatherTools,
        messages: [
            {id: "1", role: "user", content: "Weather?", images: []},
            {id: "2", role: "assistant", content: "", images: [], toolCalls: calls},
            {id: "3", role: "tool", content: "sunny", images: [], toolCallId: "call_1"}
        ]
    }));
    assert.deepEqual((body.messages as unknown[]).slice(1), [
        {role: "assistant", content: null, tool_calls: calls},
        {role: "tool", tool_call_id: "call_1", content: "sunny"}
    ]);
    parseChatCompletionRequest(body);
});

test("tools, a named tool_choice and a json_schema response_format are sent as the server reads them", () => {
    const {body, errors} = buildChatRequest(draft({toolsText: weatherTools, toolChoice: "function:get_weather", responseFormat: {mode: "json_schema", schemaText: defaultSchemaText}}));
    assert.deepEqual(errors, {});
    assert.deepEqual(body.tool_choice, {type: "function", function: {name: "get_weather"}});
    assert.deepEqual(body.response_format, {type: "json_schema", json_schema: JSON.parse(defaultSchemaText)});
    const parsed = parseChatCompletionRequest(body);
    assert.equal(parsed.tools?.[0].function.name, "get_weather");
});

test("broken tools JSON or a tool without a name is reported with the server's path, and the field left out", () => {
    const broken = buildChatRequest(draft({toolsText: "[{"}));
    assert.match(broken.errors.tools ?? "", /^Invalid JSON/);
    assert.equal("tools" in broken.body, false);
    const nameless = buildChatRequest(draft({toolsText: JSON.stringify([{type: "function", function: {}}])}));
    assert.equal(nameless.errors.tools, "tools[0].function.name: is required");
    const badFormat = buildChatRequest(draft({responseFormat: {mode: "json_schema", schemaText: "{\"schema\": {}}"}}));
    assert.equal(badFormat.errors.response_format, "response_format.json_schema.name: is required");
    const unknownChoice = buildChatRequest(draft({toolsText: weatherTools, toolChoice: "function:nope"}));
    assert.match(unknownChoice.errors.tool_choice ?? "", /"nope"/);
});

test("a body read back into a draft builds the same body again (history re-open)", () => {
    const original = buildChatRequest(draft({
        systemPrompt: "S",
        toolsText: weatherTools,
        toolChoice: "required",
        responseFormat: {mode: "json_object", schemaText: defaultSchemaText},
        params: {max_completion_tokens: 10, top_p: 0.9, n: 2, reasoning_effort: "low", thinking_token_budget: 5, presence_penalty: 1, frequency_penalty: -1},
        messages: [{id: "1", role: "user", content: "Look", images: [{id: "a", name: "a", dataUrl: toDataUrl(pngHeader(1, 1))}]}]
    })).body;
    assert.deepEqual(buildChatRequest(draftFromChatRequest(original)).body, original);
});

test("a streamed request that forces a tool call or asks for JSON mode is stopped with the server's own reason", () => {
    for (const toolChoice of ["required", "function:get_weather"] as const) {
        const streamed = buildChatRequest(draft({toolsText: weatherTools, toolChoice, params: {stream: true}}));
        assert.equal(streamed.errors.stream, "tool_choice: forcing a tool call is not supported on streaming requests; use \"auto\" or send stream: false");
        // The server's parser refuses the same body.
        assert.throws(() => parseChatCompletionRequest(streamed.body), /forcing a tool call is not supported on streaming requests/);
        assert.deepEqual(buildChatRequest(draft({toolsText: weatherTools, toolChoice, params: {stream: false}})).errors, {});
    }
    const format = buildChatRequest(draft({responseFormat: {mode: "json_object", schemaText: defaultSchemaText}, params: {stream: true}}));
    assert.match(format.errors.stream ?? "", /^response_format: is not supported with stream/);
    assert.deepEqual(buildChatRequest(draft({toolsText: weatherTools, toolChoice: "auto", params: {stream: true}})).errors, {});
});
