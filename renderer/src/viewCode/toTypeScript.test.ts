import {test} from "node:test";
import assert from "node:assert/strict";
import {toTypeScript} from "./toTypeScript.ts";

const baseUrl = "http://127.0.0.1:8080/svc-1/v1";

test("uses the openai client with the base URL and the key from process.env, never a literal", () => {
    const code = toTypeScript({endpoint: "chat", baseUrl, body: {model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 64}});
    assert.match(code, /^import OpenAI from "openai";$/m);
    assert.match(code, /baseURL: "http:\/\/127\.0\.0\.1:8080\/svc-1\/v1"/);
    assert.match(code, /apiKey: process\.env\.SVC_API_KEY/);
    assert.match(code, /const completion = await client\.chat\.completions\.create\(\{/);
    assert.match(code, /max_tokens: 64/);
    assert.match(code, /console\.log\(completion\.choices\[0\]\.message\.content\);/);
});

test("svc extras are spread in after the typed fields", () => {
    const code = toTypeScript({endpoint: "chat", baseUrl, body: {
        model: "svc-1", messages: [], include_reasoning: false, chat_template_kwargs: {enable_thinking: true}, temperature: 0
    }});
    const extrasAt = code.indexOf("...{");
    assert.ok(extrasAt > code.indexOf("temperature: 0"));
    assert.match(code.slice(extrasAt), /include_reasoning: false,\s+chat_template_kwargs: \{enable_thinking: true\}/);
});

test("streaming requests iterate the stream; Responses prints the text deltas", () => {
    const chat = toTypeScript({endpoint: "chat", baseUrl, body: {model: "svc-1", messages: [], stream: true}});
    assert.match(chat, /for await \(const chunk of stream\)/);
    assert.match(chat, /chunk\.choices\[0\]\?\.delta\?\.content/);
    const responses = toTypeScript({endpoint: "responses", baseUrl, body: {model: "svc-1", input: "x", stream: true}});
    assert.match(responses, /client\.responses\.create/);
    assert.match(responses, /response\.output_text\.delta/);
    const legacy = toTypeScript({endpoint: "completions", baseUrl, body: {model: "svc-1", prompt: "x"}});
    assert.match(legacy, /client\.completions\.create[\s\S]*completion\.choices\[0\]\.text/);
});
