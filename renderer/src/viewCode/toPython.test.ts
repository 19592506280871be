import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {toPython} from "./toPython.ts";

const baseUrl = "https://api.example.com/svc-1/v1";

const hasPython = (() => {
    try {
        execFileSync("python3", ["--version"]);
        return true;
    } catch {
        return false;
    }
})();

test("reads the key from os.environ and puts svc extras in extra_body", () => {
    const code = toPython({endpoint: "chat", baseUrl, body: {
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
    const code = toPython({endpoint: "chat", baseUrl, body});
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
