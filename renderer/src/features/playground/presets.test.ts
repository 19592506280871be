import assert from "node:assert/strict";
import {test} from "node:test";
import {buildChatRequest, defaultSchemaText, draftFromChatRequest, type ChatDraft} from "./chat.ts";
import {describePreset, presetFor, presetFromDraft, readPreset, type Preset} from "./presets.ts";
import {buildResponsesRequest, draftFromResponsesRequest} from "./responses.ts";

const tools = JSON.stringify([{type: "function", function: {name: "get_weather", parameters: {type: "object", properties: {}}}}]);

const chatDraft = (over: Partial<ChatDraft> = {}): ChatDraft => ({
    systemPrompt: "Be brief.",
    messages: [{id: "1", role: "user", content: "Weather in Oslo?", images: []}],
    params: {temperature: 0.2, max_tokens: 64, seed: 42, stream: true, include_usage: true},
    toolsText: "",
    toolChoice: "",
    responseFormat: {mode: "none", schemaText: defaultSchemaText},
    ...over
});

const saved = (preset: ReturnType<typeof presetFromDraft>): Preset => {
    if ("error" in preset) throw new Error(preset.error);
    return preset;
};

test("a chat preset keeps everything the playground sends, and loads back to the same request", () => {
    const draft = chatDraft({toolsText: tools, toolChoice: "required", responseFormat: {mode: "json_object", schemaText: defaultSchemaText},
        messages: [{id: "1", role: "user", content: "Hi", images: []}, {id: "2", role: "assistant", content: "Hello", images: []}, {id: "3", role: "user", content: "Weather?", images: []}]});
    const preset = saved(presetFromDraft("Weather", {kind: "chat", draft}));
    assert.deepEqual(Object.keys(preset.prompt ?? {}), ["messages", "tools", "tool_choice", "response_format"]);
    assert.equal(describePreset(preset), "system prompt · 3 messages · 1 tool · json_object · 5 parameters");
    const use = presetFor("chat", preset);
    assert.ok(!("unusable" in use));
    const loaded = {...draftFromChatRequest(use.prompt!), params: use.params};
    assert.deepEqual(buildChatRequest(loaded).body, buildChatRequest(draft).body);
});

test("a preset is not saved while a JSON field does not read (the request would drop it)", () => {
    const result = presetFromDraft("Broken", {kind: "chat", draft: chatDraft({toolsText: "[{"})});
    assert.ok("error" in result && /^Fix the request first: Invalid JSON/.test(result.error));
});

test("a chat preset of a system prompt and one user message is offered in Responses, its parameters mapped or listed as left out", () => {
    const preset = saved(presetFromDraft("Brief", {kind: "chat", draft: chatDraft()}));
    const use = presetFor("responses", preset);
    assert.ok(!("unusable" in use));
    assert.deepEqual(use.prompt, {instructions: "Be brief.", input: "Weather in Oslo?"});
    // max_tokens is max_output_tokens there; include_usage needs no counterpart (a Responses stream ends with usage).
    assert.deepEqual(use.params, {temperature: 0.2, max_output_tokens: 64, stream: true});
    assert.deepEqual(use.dropped, ["seed"]);
    const draft = {...draftFromResponsesRequest(use.prompt!), params: use.params};
    assert.equal(buildResponsesRequest(draft).instructions, "Be brief.");

    // And back: a Responses preset in Chat.
    const back = presetFor("chat", saved(presetFromDraft("Back", {kind: "responses", draft})));
    assert.ok(!("unusable" in back));
    assert.deepEqual(back.prompt, {messages: [{role: "system", content: "Be brief."}, {role: "user", content: "Weather in Oslo?"}]});
    assert.deepEqual(back.params, {temperature: 0.2, max_tokens: 64, stream: true});
});

test("images carry over between Chat and Responses in each one's shape", () => {
    const url = "data:image/png;base64,AAAA";
    const preset = saved(presetFromDraft("Look", {kind: "chat", draft: chatDraft({systemPrompt: "", messages: [{id: "1", role: "user", content: "What is it?", images: [{id: "i", name: "a", dataUrl: url}]}]})}));
    const use = presetFor("responses", preset);
    assert.ok(!("unusable" in use));
    assert.deepEqual(use.prompt, {input: [{role: "user", content: [{type: "input_text", text: "What is it?"}, {type: "input_image", image_url: url, detail: "auto"}]}]});
});

test("what the other playground cannot send is named, not loaded", () => {
    const unusable = (preset: Preset, target: "chat" | "responses" | "completions") => {
        const use = presetFor(target, preset);
        return "unusable" in use ? use.unusable : null;
    };
    const chat = (over: Partial<ChatDraft>) => saved(presetFromDraft("x", {kind: "chat", draft: chatDraft(over)}));
    assert.match(unusable(chat({toolsText: tools}), "responses") ?? "", /has tools/);
    assert.match(unusable(chat({responseFormat: {mode: "json_object", schemaText: defaultSchemaText}}), "responses") ?? "", /has response_format/);
    assert.match(unusable(chat({messages: [{id: "1", role: "user", content: "a", images: []}, {id: "2", role: "assistant", content: "b", images: []}]}), "responses") ?? "",
        /holds 2 messages besides the system prompt/);
    assert.match(unusable(chat({}), "completions") ?? "", /Completions takes plain text/);
    const story = saved(presetFromDraft("Story", {kind: "completions", draft: {prompt: "Once", params: {max_tokens: 8}}}));
    assert.match(unusable(story, "chat") ?? "", /plain-text prompt/);
    assert.equal(unusable(story, "completions"), null);
});

test("a preset saved before presets held prompts sets the parameters only", () => {
    const old = readPreset({id: "p1", name: "Old", kind: "chat", params: {temperature: 0}, createdAt: 1}, "presets[0]");
    assert.deepEqual(old, {id: "p1", name: "Old", kind: "chat", params: {temperature: 0}, createdAt: 1});
    assert.equal(describePreset(old), "parameters only (1)");
    const use = presetFor("responses", old);
    assert.ok(!("unusable" in use));
    assert.equal(use.prompt, undefined);
    assert.deepEqual(use.params, {temperature: 0});
});
