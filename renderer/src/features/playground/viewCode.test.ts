import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {test} from "node:test";
import type {GatewayState} from "../../gateway/types.ts";
import {apiBaseUrl, elideDataUrls, formatLiteral, shellQuote, toCurl, toPython, toTypeScript} from "./viewCode.ts";

const state = (active: string, engine: GatewayState["engine"] = {status: "running"}): GatewayState => ({
    engine,
    connections: [
        {id: "local", kind: "local", name: "Local engine", hasKey: false},
        {id: "r1", kind: "remote", name: "Prod", baseUrl: "https://api.example.com/", hasKey: true}
    ],
    activeConnectionId: active,
    mode: "web"
});

test("local: the engine's own URL from the gateway state, its kept port while stopped, else the CLI default", () => {
    assert.equal(apiBaseUrl(state("local", {status: "running", url: "http://127.0.0.1:41234"})), "http://127.0.0.1:41234/svc-1/v1");
    // A stopped engine starts again on its kept port: a snippet copied now still works then.
    assert.equal(apiBaseUrl(state("local", {status: "stopped", port: 8123})), "http://127.0.0.1:8123/svc-1/v1");
    assert.equal(apiBaseUrl(state("local")), "http://127.0.0.1:8080/svc-1/v1");
    assert.equal(apiBaseUrl(undefined), "http://127.0.0.1:8080/svc-1/v1");
});

test("remote: the profile's base URL plus the model path, without doubled slashes", () => {
    assert.equal(apiBaseUrl(state("r1")), "https://api.example.com/svc-1/v1");
});

test("long data URLs are cut to their head with the size left out; the input is not changed", () => {
    const url = `data:image/png;base64,${"A".repeat(5000)}`;
    const body = {messages: [{role: "user", content: [{type: "image_url", image_url: {url}}]}], n: 1};
    const out = elideDataUrls(body);
    const shown = (out.messages[0].content[0] as {image_url: {url: string}}).image_url.url;
    assert.match(shown, /^data:image\/png;base64,A{24}…\[5\.0 kB elided\]$/);
    assert.equal(body.messages[0].content[0].image_url.url, url);
    assert.equal(out.n, 1);
});

test("short data URLs and other strings are kept", () => {
    assert.equal(elideDataUrls("data:text/plain;base64,aGk="), "data:text/plain;base64,aGk=");
    assert.equal(elideDataUrls("x".repeat(500)), "x".repeat(500));
});

test("JavaScript literals unquote identifier keys and keep small objects on one line", () => {
    assert.equal(formatLiteral({role: "user", content: "Hi"}, "js"), `{role: "user", content: "Hi"}`);
    assert.equal(formatLiteral({"not-an-id": 1, ok: true, none: null}, "js"), `{"not-an-id": 1, ok: true, none: null}`);
});

test("Python literals spell booleans and null the Python way and quote every key", () => {
    assert.equal(formatLiteral({a: true, b: false, c: null, d: [1, 2.5]}, "python"), `{"a": True, "b": False, "c": None, "d": [1, 2.5]}`);
});

test("strings are escaped so that both languages read back the same text", () => {
    const text = "line 1\nsays \"hi\" \\ and ' ünïcode";
    const literal = formatLiteral(text, "js");
    assert.equal(JSON.parse(literal), text);
    assert.equal(formatLiteral(text, "python"), literal);
});

test("big values break into one entry per line, indented per level", () => {
    const value = {messages: [{role: "system", content: "x".repeat(80)}, {role: "user", content: "Hello"}]};
    const out = formatLiteral(value, "js");
    assert.equal(out, [
        "{",
        "    messages: [",
        "        {",
        `            role: "system",`,
        `            content: "${"x".repeat(80)}"`,
        "        },",
        `        {role: "user", content: "Hello"}`,
        "    ]",
        "}"
    ].join("\n"));
    // The multi-line JS form of JSON-compatible data is still valid JavaScript that evaluates to the value.
    assert.deepEqual(new Function(`return ${out};`)(), value);
});

test("empty containers stay compact", () => {
    assert.equal(formatLiteral({a: [], b: {}}, "python"), `{"a": [], "b": {}}`);
});

const baseUrl = "http://127.0.0.1:8080/svc-1/v1";

test("posts the body to the endpoint URL with the key read from $SVC_API_KEY", () => {
    const body = {model: "svc-1", messages: [{role: "user", content: "Hi"}], temperature: 0.3};
    const code = toCurl({endpoint: "chat", baseUrl, body});
    assert.match(code, /^curl http:\/\/127\.0\.0\.1:8080\/svc-1\/v1\/chat\/completions \\$/m);
    assert.match(code, /-H "Authorization: Bearer \$SVC_API_KEY"/);
    assert.doesNotMatch(code, /-N/);
    // The shell hands curl exactly the JSON of the body.
    const quoted = code.slice(code.indexOf("-d ") + 3).trim();
    assert.deepEqual(JSON.parse(execFileSync("bash", ["-c", `printf %s ${quoted}`], {encoding: "utf8"})), body);
});

test("a streaming request turns off curl's buffering and each endpoint has its own path", () => {
    assert.match(toCurl({endpoint: "responses", baseUrl, body: {model: "svc-1", input: "x", stream: true}}), /^curl -N http:\/\/127\.0\.0\.1:8080\/svc-1\/v1\/responses /);
    assert.match(toCurl({endpoint: "completions", baseUrl, body: {model: "svc-1", prompt: "x"}}), /\/svc-1\/v1\/completions \\/);
});

test("single quotes in the body survive the shell", () => {
    const text = "it's a 'test' with $HOME and `ticks`";
    assert.equal(execFileSync("bash", ["-c", `printf %s ${shellQuote(text)}`], {encoding: "utf8"}), text);
});

const remoteBaseUrl = "https://api.example.com/svc-1/v1";

const hasPython = (() => {
    try {
        execFileSync("python3", ["--version"]);
        return true;
    } catch {
        return false;
    }
})();

test("reads the key from os.environ and puts svc extras in extra_body", () => {
    const code = toPython({endpoint: "chat", baseUrl: remoteBaseUrl, body: {
        model: "svc-1", messages: [{role: "user", content: "Hi"}], include_reasoning: false, seed: 7, stream: true, stream_options: {include_usage: true}
    }});
    assert.match(code, /api_key=os\.environ\["SVC_API_KEY"\]/);
    assert.match(code, /base_url="https:\/\/api\.example\.com\/svc-1\/v1"/);
    assert.match(code, /seed=7,/);
    assert.match(code, /stream_options=\{"include_usage": True\},/);
    assert.match(code, /extra_body=\{"include_reasoning": False\},/);
    assert.match(code, /for chunk in stream:/);
});

test("the generated script is valid Python whose arguments equal the request body", {skip: hasPython ? false : "python3 is not installed"}, () => {
    const body = {
        model: "svc-1",
        messages: [{role: "system", content: "Be \"brief\"\nplease"}, {role: "user", content: [{type: "text", text: "ünï"}, {type: "image_url", image_url: {url: "data:image/png;base64,AAAA"}}]}],
        tools: [{type: "function", function: {name: "get_weather", parameters: {type: "object", properties: {city: {type: "string"}}, required: ["city"]}}}],
        tool_choice: "auto",
        temperature: 0.5,
        chat_template_kwargs: {enable_thinking: false},
        thinking_token_budget: 10
    };
    const code = toPython({endpoint: "chat", baseUrl: remoteBaseUrl, body});
    // Run the script with a stand-in `openai` module that prints the arguments it was given as JSON.
    const stub = [
        "import json, sys, types",
        "class _C:",
        "    def create(self, **kw):",
        "        extra = kw.pop('extra_body', {})",
        "        print(json.dumps({**kw, **extra}))",
        "        sys.exit(0)",
        "class OpenAI:",
        "    def __init__(self, base_url, api_key):",
        "        self.chat = types.SimpleNamespace(completions=_C())",
        "sys.modules['openai'] = types.SimpleNamespace(OpenAI=OpenAI)"
    ].join("\n");
    const out = execFileSync("python3", ["-c", `${stub}\n${code}`], {encoding: "utf8", env: {...process.env, SVC_API_KEY: "x"}});
    assert.deepEqual(JSON.parse(out), body);
});

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

const decisionBody = {model: "svc-1-decision", input: "It's \"fine\"", questions: [{type: "predicate", name: "ok", instructions: "Is it fine?"}], x_svc: {explain: true}};

test("decision endpoints: the svc-1-decision base URL with /v1, each endpoint its own path", () => {
    assert.equal(apiBaseUrl(state("local", {status: "running", url: "http://127.0.0.1:41234"}), "decisions"), "http://127.0.0.1:41234/svc-1-decision/v1");
    assert.equal(apiBaseUrl(state("r1"), "systemone"), "https://api.example.com/svc-1-decision/v1");
    const curl = toCurl({endpoint: "decisions", baseUrl: "http://127.0.0.1:8080/svc-1-decision/v1", body: decisionBody});
    assert.match(curl, /^curl http:\/\/127\.0\.0\.1:8080\/svc-1-decision\/v1\/decisions \\$/m);
    assert.match(toCurl({endpoint: "systemone", baseUrl: "http://h/svc-1-decision/v1", body: {}}), /^curl http:\/\/h\/svc-1-decision\/v1\/systemone /);
});

test("decision endpoints: TypeScript and Python post the whole body through the openai client's generic post", () => {
    const request = {endpoint: "decisions" as const, baseUrl: "http://127.0.0.1:8080/svc-1-decision/v1", body: decisionBody};
    const ts = toTypeScript(request);
    assert.match(ts, /baseURL: "http:\/\/127\.0\.0\.1:8080\/svc-1-decision\/v1"/);
    assert.match(ts, /const result = await client\.post\("\/decisions", \{\n {4}body: \{/);
    assert.match(ts, /x_svc: \{explain: true\}/);
    assert.doesNotMatch(ts, /extra_body|\.create\(/);
    const py = toPython({...request, endpoint: "systemone"});
    assert.match(py, /response = client\.post\(\n {4}"\/systemone",\n {4}cast_to=httpx\.Response,\n {4}body=\{/);
    assert.match(py, /"x_svc": \{"explain": True\}/);
    assert.match(py, /api_key=os\.environ\["SVC_API_KEY"\]/);
});

test("decision endpoints: the Python script posts exactly the request body", {skip: hasPython ? false : "python3 is not installed"}, () => {
    const code = toPython({endpoint: "decisions", baseUrl: remoteBaseUrl, body: decisionBody});
    // Stand-in `openai` and `httpx` modules: post prints the body it was given as JSON.
    const stub = [
        "import json, sys, types",
        "class OpenAI:",
        "    def __init__(self, base_url, api_key):",
        "        pass",
        "    def post(self, path, cast_to, body):",
        "        print(json.dumps({'path': path, 'body': body}))",
        "        sys.exit(0)",
        "sys.modules['openai'] = types.SimpleNamespace(OpenAI=OpenAI)",
        "sys.modules['httpx'] = types.SimpleNamespace(Response=object)"
    ].join("\n");
    const out = execFileSync("python3", ["-c", `${stub}\n${code}`], {encoding: "utf8", env: {...process.env, SVC_API_KEY: "x"}});
    assert.deepEqual(JSON.parse(out), {path: "/decisions", body: decisionBody});
});
