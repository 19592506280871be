// The admin API (`/admin/v1`, protocol/admin/routes.ts) and `GET /metrics` on the real server: the typed client end
// to end, and who may call them: loopback callers only, or whoever has the admin key; never the network.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import os from "node:os";
import {createAdminClient} from "../../protocol/admin/routes.ts";
import type {RouteMethod} from "../../protocol/routeTable.ts";
import {AdminAccess, isLoopbackAddress} from "../../native/service/adminRoutes.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {addWorkspace, openTeamStore} from "./utils/teamServer.ts";

/** A fetch-based `send` for the typed client: errors keep their status and code. */
function adminSend(url: string, headers: Record<string, string> = {}) {
    return async (method: RouteMethod, path: string, body?: unknown, query?: string) => {
        const response = await fetch(`${url}/admin/v1${path}${query != null ? `?${query}` : ""}`, {
            method, headers: {...headers, ...(body !== undefined ? {"Content-Type": "application/json"} : {})}, body: body === undefined ? undefined : JSON.stringify(body)
        });
        const json = await response.json() as {error?: {code: string, message: string}};
        if (!response.ok) throw Object.assign(new Error(json.error?.message), {status: response.status, code: json.error?.code});
        return json;
    };
}

/** A raw call to a path outside the model routes (callApi puts bare paths under /svc-1/v1). */
async function raw(server: TestServer, path: string, headers: Record<string, string> = {}) {
    const response = await fetch(server.url + path, {headers});
    const text = await response.text();
    return {status: response.status, headers: response.headers, text, json: JSON.parse(text.startsWith("{") ? text : "null")};
}

const rejectsWith = (status: number, code: string) => (error: {status?: number, code?: string}) => error.status === status && error.code === code;

describe("loopback-only (no admin key)", () => {
    let team: Awaited<ReturnType<typeof openTeamStore>>;
    let server: TestServer;
    before(async () => {
        team = await openTeamStore();
        // A workspace from the start: the server is keyed, so its browser policy lets any Origin in (CORS *), the case
        // where the admin API must refuse browsers itself.
        addWorkspace(team.store, {organization: "first", name: "first"});
        // On every interface, so that a caller from another address can be tried.
        server = await startTestServer({dataDir: team.dataDir, host: "0.0.0.0"});
        server.url = server.url.replace("0.0.0.0", "127.0.0.1");
    });
    after(async () => {
        await server?.close();
        await team?.remove();
    });

    test("the typed client sets up a workspace end to end; the secret is answered once and the key then serves", async () => {
        const admin = createAdminClient(adminSend(server.url));
        const {organization} = await admin.createOrganization("acme");
        const {workspace} = await admin.createWorkspace(organization.id, "research");
        assert.deepEqual([workspace.activatedAt, workspace.balanceMicros], [null, 0]);
        await admin.activateWorkspace(workspace.id);
        assert.equal((await admin.addCredits(workspace.id, 2_500_000, "first top-up")).workspace.balanceMicros, 2_500_000);
        await admin.setPrice({model: "svc-1", inputMicrosPerMillion: 1_000_000, cachedInputMicrosPerMillion: 100_000, outputMicrosPerMillion: 4_000_000});
        await assert.rejects(admin.setPrice({model: "svc-1-decision", inputMicrosPerMillion: 1, cachedInputMicrosPerMillion: 1, outputMicrosPerMillion: 5}),
            rejectsWith(400, "invalid_request"), "decision output is free");
        await admin.setRateLimit({workspaceId: workspace.id, model: "svc-1", requestsPerMinute: 600, tokensPerMinute: null});
        assert.equal((await admin.rateLimits(workspace.id)).rateLimits.length, 1);

        const issued = await admin.createKey({workspaceId: workspace.id, name: "ci", owner: {type: "user", userId: "ada"}, visibility: "private"});
        assert.match(issued.secret, /^ck_[0-9a-f]{12}_/);
        assert.ok(issued.secret.startsWith(issued.key.hint));
        const listed = await admin.keys(workspace.id);
        assert.equal(JSON.stringify(listed).includes(issued.secret.slice(16)), false, "a listing never carries the secret");
        assert.deepEqual(listed.keys.map((key) => [key.id, key.state, key.visibility]), [[issued.key.id, "active", "private"]]);

        const reply = await callApi(server, {path: "/chat/completions", body: {model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 3},
            authorization: `Bearer ${issued.secret}`});
        assert.equal(reply.status, 200, reply.text);
        const {rows} = await admin.usage({workspaceId: workspace.id, groupBy: ["key", "model", "day"]});
        assert.equal(rows.length, 1);
        assert.deepEqual([rows[0].keyId, rows[0].model, rows[0].requests, rows[0].outputTokens], [issued.key.id, "svc-1", 1, reply.json.usage.completion_tokens]);
        assert.equal((await admin.workspaces()).workspaces.find((candidate) => candidate.id === workspace.id)!.balanceMicros, 2_500_000 - rows[0].costMicros);

        const rotated = await admin.rotateKey(issued.key.id);
        assert.notEqual(rotated.secret, issued.secret);
        assert.equal((await admin.revokeKey(issued.key.id)).key.state, "revoked");
        await assert.rejects(admin.rotateKey(issued.key.id), rejectsWith(409, "conflict"));
        await assert.rejects(admin.activateWorkspace("ws_missing"), rejectsWith(404, "not_found"));
    });

    test("GET /metrics: requests by endpoint and status, latency histogram, tokens, queue depth (Prometheus text)", async () => {
        await callApi(server, {path: "/models", authorization: "Bearer sk-wrong"});
        const response = await fetch(`${server.url}/metrics`);
        assert.equal(response.status, 200);
        assert.match(response.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
        const text = await response.text();
        assert.match(text, /svc_http_requests_total\{endpoint="\/svc-1\/v1\/chat\/completions",status="200"\} 1/);
        assert.match(text, /svc_http_requests_total\{endpoint="\/svc-1\/v1\/models",status="401"\} 1/);
        assert.match(text, /svc_http_request_duration_seconds_bucket\{le="\+Inf",endpoint="\/svc-1\/v1\/chat\/completions"\} 1/);
        assert.match(text, /svc_tokens_total\{model="svc-1",kind="uncached_input"\} \d+/);
        assert.match(text, /svc_tokens_total\{model="svc-1",kind="output"\} \d+/);
        assert.match(text, /svc_queue_depth\{model="svc-1,svc-1-decision"\} 0/);
    });

    test("callers that are not this machine are refused: another address, a foreign Host, a foreign Origin", async (t) => {
        const external = Object.values(os.networkInterfaces()).flat().find((address) => address != null && !address.internal && address.family === "IPv4");
        const port = new URL(server.url).port;
        if (external == null) t.diagnostic("no non-loopback interface: the address case is covered by the AdminAccess unit case below");
        else {
            // A real socket from a non-loopback address, even with a Host that names the loopback.
            const status = await new Promise<{status: number, body: string}>((resolve, reject) => {
                http.get({host: external.address, port, path: "/admin/v1/workspaces", headers: {Host: `127.0.0.1:${port}`}}, (response) => {
                    let body = "";
                    response.on("data", (chunk) => body += chunk);
                    response.on("end", () => resolve({status: response.statusCode!, body}));
                }).on("error", reject);
            });
            assert.equal(status.status, 403, status.body);
            assert.equal(JSON.parse(status.body).error.code, "admin_forbidden");
            const metrics = await fetch(`http://${external.address}:${port}/metrics`);
            assert.equal(metrics.status, 403);
        }
        const foreign = await raw(server, "/admin/v1/workspaces", {Origin: "https://evil.example"});
        assertApiError(foreign, 403, "admin_forbidden", "invalid_request_error");
        assert.equal(foreign.headers.get("access-control-allow-origin"), "*", "the keyed server's CORS would have let the page read it");
        assert.equal((await raw(server, "/admin/v1/workspaces", {Origin: "http://localhost:5173"})).status, 200);
    });
});

describe("behind an admin key", () => {
    let team: Awaited<ReturnType<typeof openTeamStore>>;
    let server: TestServer;
    before(async () => {
        team = await openTeamStore();
        server = await startTestServer({dataDir: team.dataDir, adminKey: "adm-0123456789"});
    });
    after(async () => {
        await server?.close();
        await team?.remove();
    });

    test("no key and a wrong key are 401, on the admin API and /metrics alike; the right key is served", async () => {
        for (const path of ["/admin/v1/organizations", "/metrics"]) {
            for (const authorization of [undefined, "Bearer adm-wrong", "Bearer adm-01234567890", "Basic adm-0123456789"])
                assertApiError(await raw(server, path, authorization == null ? {} : {Authorization: authorization}), 401, "invalid_api_key", "authentication_error", "admin key");
            assert.equal((await raw(server, path, {Authorization: "Bearer adm-0123456789"})).status, 200);
        }
        const admin = createAdminClient(adminSend(server.url, {Authorization: "Bearer wrong"}));
        await assert.rejects(admin.createOrganization("x"), rejectsWith(401, "invalid_api_key"));
        assert.deepEqual((await createAdminClient(adminSend(server.url, {Authorization: "Bearer adm-0123456789"})).organizations()).organizations, []);
    });
});

test("AdminAccess: loopback peers only without a key, whatever the socket's spelling", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) assert.equal(isLoopbackAddress(address), true, address);
    for (const address of ["10.0.0.1", "192.0.2.2", "::ffff:10.0.0.1", "fd00::2", "::", undefined]) assert.equal(isLoopbackAddress(address), false, String(address));
    const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
        ({socket: {remoteAddress}, headers: {host: "127.0.0.1:8080", ...headers}}) as unknown as http.IncomingMessage;
    const open = new AdminAccess(undefined);
    open.check(request("127.0.0.1"));
    assert.throws(() => open.check(request("10.1.2.3")), {status: 403, code: "admin_forbidden"});
    assert.throws(() => open.check(request("127.0.0.1", {host: "evil.example"})), {status: 403, code: "admin_forbidden"});
    assert.throws(() => open.check(request("127.0.0.1", {origin: "null"})), {status: 403, code: "admin_forbidden"});
    const keyed = new AdminAccess("k-1");
    keyed.check(request("10.1.2.3", {authorization: "Bearer k-1"}));
    assert.throws(() => keyed.check(request("127.0.0.1", {authorization: "Bearer k-2"})), {status: 401, code: "invalid_api_key"});
});
