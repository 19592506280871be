// The front's connections to its upstream, against raw Node HTTP servers that behave as engines do under load: a
// kept-alive connection closed by the upstream just as it is reused (cpp-httplib closes idle connections after its
// keep-alive timeout, and a connection after a number of requests), a stream cut after it began, the upstream's
// Keep-Alive header, and a front whose connections are all taken.
import {afterEach, test} from "node:test";
import assert from "node:assert/strict";
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import type {AddressInfo, Socket} from "node:net";
import {setTimeout as sleep} from "node:timers/promises";
import {UpstreamClient} from "./UpstreamClient.ts";
import {startUpstreamServer} from "./startUpstreamServer.ts";

type Handler = (request: IncomingMessage, response: ServerResponse, served: number) => void;
const servers: Server[] = [];

/**
 * A loopback server that counts its connections and the requests on each; `served` is how many requests the
 * connection had carried before this one.
 */
async function engine(handle: Handler, configure: (server: Server) => void = () => {}) {
    const perSocket = new WeakMap<Socket, number>();
    const stats = {connections: 0, requests: 0, closedConnections: 0};
    const server = createServer((request, response) => {
        const served = perSocket.get(request.socket) ?? 0;
        perSocket.set(request.socket, served + 1);
        stats.requests++;
        handle(request, response, served);
    });
    server.on("connection", (socket: Socket) => {
        stats.connections++;
        socket.once("close", () => stats.closedConnections++);
    });
    configure(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats};
}

const json = (response: ServerResponse, body: unknown) => response.setHeader("Content-Type", "application/json").end(JSON.stringify(body));
const signal = () => new AbortController().signal;

afterEach(async () => {
    for (const server of servers.splice(0)) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
    }
});

test("a request on kept-alive connections the upstream has closed is sent again on a new connection, not on another kept one", async () => {
    // Each connection carries one request; the upstream drops any later request on it without a word, as a server
    // does that closed the connection while the request was on its way. Three kept connections wait in the pool,
    // so a retry through the same pool would be handed another dead one.
    const {url, stats} = await engine((request, response, served) => {
        if (served > 0) return void request.socket.destroy();
        setTimeout(() => json(response, {served, n: stats.requests}), 30);
    });
    const client = new UpstreamClient({baseUrl: `${url}/v1`});
    try {
        await Promise.all([1, 2, 3].map(() => client.postJson("/completions", {prompt: "warm"}, signal())));
        assert.equal(stats.connections, 3, "three connections kept");
        for (let round = 0; round < 3; round++) {
            const connections: number = stats.connections;
            const answer = await client.postJson<{served: number}>("/completions", {prompt: "again"}, signal());
            assert.equal(answer.served, 0, "answered on a connection that had carried nothing before");
            assert.equal(stats.connections, connections + 1, "the retry opened one new connection");
        }
    } finally {
        client.close();
    }
});

test("a connection closed before any answer twice over is a 502; a stream cut after it began is never sent again", async () => {
    let mode: "drop" | "cut" = "drop";
    const {url, stats} = await engine((request, response) => {
        if (mode === "drop") return void request.socket.destroy();
        response.writeHead(200, {"Content-Type": "text/event-stream"});
        response.write(`data: ${JSON.stringify({choices: [{delta: {content: "Once"}}]})}\n\n`);
        setTimeout(() => request.socket.destroy(), 20);
    });
    const client = new UpstreamClient({baseUrl: `${url}/v1`});
    try {
        await assert.rejects(client.postJson("/completions", {prompt: "a"}, signal()),
            (error: {status?: number, code?: string}) => error.status === 502 && error.code === "upstream_error");
        assert.equal(stats.requests, 2, "sent twice, not more");
        mode = "cut";
        const response = await client.post("/chat/completions", {stream: true}, signal());
        await assert.rejects(response.text());
        await sleep(50);
        assert.equal(stats.requests, 3, "the stream that began was sent once");
    } finally {
        client.close();
    }
});

test("new connections closed unanswered while the upstream answers others: 429 service_busy; with nothing in flight: 502", async () => {
    // The first request is answered slowly; every later connection is closed as soon as its request arrives, as an
    // engine at its own connection limit does.
    let slow: ServerResponse | undefined;
    const {url, stats} = await engine((request, response) => {
        if (stats.requests === 1) slow = response;
        else request.socket.destroy();
    });
    const client = new UpstreamClient({baseUrl: `${url}/v1`});
    try {
        const first = client.postJson("/completions", {prompt: "slow"}, signal());
        while (slow == null) await sleep(5);
        await assert.rejects(client.postJson("/completions", {prompt: "b"}, signal()),
            (error: {status?: number, code?: string, retryAfter?: number}) => error.status === 429 && error.code === "service_busy" && error.retryAfter === 1);
        json(slow, {ok: true});
        assert.deepEqual(await first, {ok: true});
        await client.postJson("/completions", {prompt: "c"}, signal()).then(() => assert.fail("answered"), (error: {status?: number, code?: string}) =>
            assert.deepEqual([error.status, error.code], [502, "upstream_error"]));
    } finally {
        client.close();
    }
});

test("idle connections are dropped at half the upstream's announced keep-alive, before the upstream drops them", async () => {
    const {url, stats} = await engine((_request, response) => json(response, {ok: true}), (server) => {
        // Node's server announces `Keep-Alive: timeout=2` and closes idle connections after 2 s.
        server.keepAliveTimeout = 2_000;
    });
    const client = new UpstreamClient({baseUrl: `${url}/v1`, pool: {idleMs: 10_000}});
    try {
        await client.postJson("/completions", {}, signal());
        assert.equal(client.pool.keepAliveMs, 1_000, "learned from Keep-Alive: timeout=2");
        await client.postJson("/completions", {}, signal());
        assert.equal(stats.connections, 1, "reused while fresh");
        await sleep(1_500);
        assert.equal(stats.closedConnections, 1, "closed by the front after 1 s idle, before the upstream's 2 s");
        await client.postJson("/completions", {}, signal());
        assert.equal(stats.connections, 2);
    } finally {
        client.close();
    }
});

test("a front whose upstream connections are all taken and whose queue is full answers 429 service_busy with Retry-After", async () => {
    const {url} = await engine((request, response) => {
        if (request.url === "/v1/models") return json(response, {object: "list", data: [{id: "tiny"}]});
        if (request.url !== "/v1/chat/completions") return void response.writeHead(404).end();
        setTimeout(() => json(response, {id: "c", choices: [{index: 0, message: {role: "assistant", content: "hi"}, finish_reason: "stop"}],
            usage: {prompt_tokens: 3, completion_tokens: 1, total_tokens: 4}}), 300);
    });
    const key = "ck_pool_test";
    const front = await startUpstreamServer({host: "127.0.0.1", port: 0, apiKeys: [key], upstream: {baseUrl: `${url}/v1`, pool: {connections: 1, queue: 1}}});
    try {
        const call = () => fetch(`${front.url}/svc-1/v1/chat/completions`, {
            method: "POST", headers: {"Content-Type": "application/json", Authorization: `Bearer ${key}`},
            body: JSON.stringify({model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 2})
        });
        const first = call();
        await sleep(50);
        const second = call();
        await sleep(50);
        const third = await call();
        assert.equal(third.status, 429);
        assert.equal(third.headers.get("retry-after"), "1");
        const body = await third.json() as {error: {type: string, code: string, message: string}};
        assert.deepEqual([body.error.type, body.error.code], ["rate_limit_exceeded", "service_busy"]);
        assert.match(body.error.message, /saturated/);
        assert.deepEqual([(await first).status, (await second).status], [200, 200], "the request in flight and the one queued are answered");
    } finally {
        await front.close();
    }
});
