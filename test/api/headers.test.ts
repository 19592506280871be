// Response headers of spec §4: X-Client-Trace-Id echo, Server-Timing on every success, CORS and preflight.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {callApi, type CallOptions} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";

let server: TestServer;
const chatBody = {model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 3};
const completionBody = {model: "svc-1", prompt: "Hi", max_tokens: 3};

before(async () => {
    server = await startTestServer({apiKeys: ["ck_headers"]});
});
after(async () => {
    await server?.close();
});

const successes: Array<[string, CallOptions]> = [
    ["models list", {path: "/models"}],
    ["model object", {path: "/models/svc-1"}],
    ["chat", {path: "/chat/completions", body: chatBody}],
    ["chat stream", {path: "/chat/completions", body: {...chatBody, stream: true}}],
    ["completions", {path: "/completions", body: completionBody}],
    ["completions stream", {path: "/completions", body: {...completionBody, stream: true}}]
];

const failures: Array<[string, CallOptions, number]> = [
    ["400", {path: "/chat/completions", body: {...chatBody, max_tokens: 0}}, 400],
    ["401", {path: "/chat/completions", body: chatBody, authorization: "Bearer nope"}, 401],
    ["404", {path: "/svc-7/v1/models"}, 404],
    ["400 malformed JSON", {path: "/completions", body: "{"}, 400]
];

function exposed(headers: Headers): string[] {
    return (headers.get("access-control-expose-headers") ?? "").split(",").map((name) => name.trim().toLowerCase());
}

describe("every successful response", () => {
    for (const [name, call] of successes) {
        test(`${name}: Server-Timing, trace id echo and CORS`, async () => {
            const traceId = `trace-${name.replaceAll(" ", "-")}-${Date.now()}`;
            const startedAt = performance.now();
            const reply = await callApi(server, {...call, headers: {"X-Client-Trace-Id": traceId, "Origin": "https://app.example"}});
            const elapsed = performance.now() - startedAt;
            assert.equal(reply.status, 200, reply.text.slice(0, 200));
            const timing = reply.headers.get("server-timing") ?? "";
            const duration = /dur=([\d.]+)/.exec(timing);
            assert.ok(duration != null, `Server-Timing ${JSON.stringify(timing)}`);
            assert.ok(Number(duration[1]) >= 0 && Number(duration[1]) <= elapsed + 1, `dur ${duration[1]} ms within the ${elapsed.toFixed(1)} ms round trip`);
            assert.equal(reply.headers.get("x-client-trace-id"), traceId);
            assert.equal(reply.headers.get("access-control-allow-origin"), "*");
            assert.ok(exposed(reply.headers).includes("server-timing"));
            assert.ok(exposed(reply.headers).includes("x-client-trace-id"));
        });
    }

    test("without a trace id none is invented", async () => {
        const reply = await callApi(server, {path: "/models"});
        assert.equal(reply.headers.get("x-client-trace-id"), null);
        assert.ok(reply.headers.get("server-timing") != null);
    });
});

describe("error responses", () => {
    for (const [name, call, status] of failures) {
        test(`${name}: trace id echo and CORS, so browser code can read the error`, async () => {
            const reply = await callApi(server, {...call, headers: {"X-Client-Trace-Id": "trace-error"}});
            assert.equal(reply.status, status);
            assert.equal(reply.headers.get("x-client-trace-id"), "trace-error");
            assert.equal(reply.headers.get("access-control-allow-origin"), "*");
            assert.ok(exposed(reply.headers).includes("x-client-trace-id"));
        });
    }
});

describe("CORS preflight", () => {
    for (const path of ["/chat/completions", "/completions", "/models", "/models/svc-1"]) {
        test(`OPTIONS ${path} is answered without a key`, async () => {
            const response = await fetch(`${server.baseUrl}${path}`, {
                method: "OPTIONS",
                headers: {
                    "Origin": "https://app.example",
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "authorization, content-type, x-client-trace-id",
                    "X-Client-Trace-Id": "trace-preflight"
                }
            });
            assert.ok(response.status === 204 || response.status === 200, `status ${response.status}`);
            assert.equal(response.headers.get("access-control-allow-origin"), "*");
            const methods = (response.headers.get("access-control-allow-methods") ?? "").toUpperCase();
            assert.ok(methods.includes("POST") && methods.includes("GET"), methods);
            const allowed = (response.headers.get("access-control-allow-headers") ?? "").toLowerCase();
            for (const header of ["authorization", "content-type", "x-client-trace-id"]) assert.ok(allowed.includes(header), allowed);
            assert.ok(exposed(response.headers).includes("server-timing"));
            assert.equal(response.headers.get("x-client-trace-id"), "trace-preflight");
        });
    }
});
