import {test} from "node:test";
import assert from "node:assert/strict";
import {execFileSync} from "node:child_process";
import {shellQuote, toCurl} from "./toCurl.ts";

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
