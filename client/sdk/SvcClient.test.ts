import {test} from "node:test";
import assert from "node:assert/strict";
import {HttpApiError} from "./errors.ts";
import {SvcClient} from "./SvcClient.ts";
import {startTestServer, type Reply} from "../../test/support/startTestServer.ts";

/** Answers every request with its own method and path, echoing the trace id as spec §4 asks. */
const echo: Reply = (res, req) => {
    const headers: Record<string, string> = {"content-type": "application/json", "server-timing": "total;dur=12.3"};
    const traceId = req.headers["x-client-trace-id"];
    if (typeof traceId === "string") headers["x-client-trace-id"] = traceId;
    res.writeHead(200, headers);
    res.end(JSON.stringify({method: req.method, url: req.url}));
};

test("every method calls its spec §4 path under a gateway prefix, with meta from the headers", async () => {
    const server = await startTestServer([echo]);
    try {
        const client = new SvcClient({baseUrl: `${server.url}/local/`, apiKey: "ck_abc", headers: {"x-team": "a"}});
        const calls: Array<[string, () => Promise<{data: Record<string, unknown>, meta: {serverTimingMs: number | null, traceId: string | null, status: number}}>]> = [
            ["POST /local/svc-1/v1/chat/completions", () => client.chatCompletions({model: "svc-1", messages: []}, {traceId: "t-1"})],
            ["POST /local/svc-1/v1/completions", () => client.completions({model: "svc-1", prompt: "x"}, {traceId: "t-1"})],
            ["POST /local/svc-1/v1/responses", () => client.responses({model: "svc-1", input: "x"}, {traceId: "t-1"})],
            ["GET /local/svc-1/v1/models", () => client.listModels({traceId: "t-1"})],
            ["GET /local/svc-1/v1/models/svc-1", () => client.retrieveModel("svc-1", {traceId: "t-1"})],
            ["POST /local/svc-1-decision/v1/decisions", () => client.decisions({model: "svc-1-decision", input: "x", questions: []}, {traceId: "t-1"})],
            ["POST /local/svc-1-decision/v1/systemone", () => client.systemone({model: "svc-1-decision", state: "x", questions: {}}, {traceId: "t-1"})]
        ];
        for (const [expected, call] of calls) {
            const {data, meta} = await call();
            assert.equal(`${data.method} ${data.url}`, expected);
            assert.equal(meta.status, 200);
            assert.equal(meta.serverTimingMs, 12.3);
            assert.equal(meta.traceId, "t-1");
        }
        for (const request of server.requests) {
            assert.equal(request.headers.authorization, "Bearer ck_abc");
            assert.equal(request.headers["x-team"], "a");
            assert.equal(request.headers["x-client-trace-id"], "t-1");
            assert.equal(request.headers["content-type"], request.method === "POST" ? "application/json" : undefined);
            assert.equal(request.body === "", request.method === "GET");
        }
        assert.deepEqual(JSON.parse(server.requests[0].body), {model: "svc-1", messages: []});
    } finally {
        await server.close();
    }
});

test("meta reports no trace id or timing when the server sends none", async () => {
    const server = await startTestServer([(res) => {
        res.writeHead(200, {"content-type": "application/json"});
        res.end("{\"object\":\"list\",\"data\":[]}");
    }]);
    try {
        const {data, meta} = await new SvcClient({baseUrl: server.url}).listModels({traceId: "ignored-by-server"});
        assert.deepEqual(data, {object: "list", data: []});
        assert.equal(meta.traceId, null);
        assert.equal(meta.serverTimingMs, null);
        assert.equal(server.requests[0].headers.authorization, undefined);
    } finally {
        await server.close();
    }
});

test("a 200 whose body is not JSON is a protocol error, not retried", async () => {
    const server = await startTestServer([(res) => {
        res.writeHead(200, {"content-type": "text/plain"});
        res.end("hello");
    }]);
    try {
        const error = await new SvcClient({baseUrl: server.url, retry: {sleep: async () => undefined}}).listModels().catch((caught: unknown) => caught);
        assert.ok(error instanceof HttpApiError);
        assert.equal(error.code, "invalid_response");
        assert.equal(server.requests.length, 1);
    } finally {
        await server.close();
    }
});

test("a body with stream: true is refused by the non-stream methods", async () => {
    const client = new SvcClient({baseUrl: "http://127.0.0.1:9", fetch: () => assert.fail("no request expected")});
    await assert.rejects(client.chatCompletions({model: "svc-1", messages: [], stream: true}), /streamChatCompletions/);
    await assert.rejects(client.responses({model: "svc-1", input: "x", stream: true}), /streamResponses/);
});
