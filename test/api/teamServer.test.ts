// Workspace mode on the real server, a real SQLite file and the openai client: every status row of
// spec §7 that the service side adds (401, 402, 429 rate_limit_exceeded) and the charging rules of §2.3 and §7.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {readFile} from "node:fs/promises";
import OpenAI from "openai";
import {ApiError} from "../../protocol/errors.ts";
import {LlamaDecisionEngine} from "../../native/decisions/LlamaDecisionEngine.ts";
import {createKey, revokeKey, rotateKey} from "../../native/service/keys.ts";
import {setRateLimit} from "../../native/service/pricing.ts";
import type {ServiceStore} from "../../native/service/store.ts";
import {assertApiError} from "./utils/assertApiError.ts";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {addWorkspace, expectedCost, ledgerState, openTeamStore, setTestPrices} from "./utils/teamServer.ts";

let team: Awaited<ReturnType<typeof openTeamStore>>;
let store: ServiceStore;
let server: TestServer;
const secrets: string[] = [];
let alpha: ReturnType<typeof addWorkspace>;

const chat = (max_tokens = 4) => ({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens, temperature: 0});
const decision = (explain = false) => ({model: "svc-1-decision", input: "A cat sat on the mat.", questions: [{type: "predicate", instructions: "Is it about a cat?"}],
    ...(explain ? {x_svc: {explain: true}} : {})});
const clientFor = (apiKey: string) => new OpenAI({baseURL: server.baseUrl, apiKey, maxRetries: 0});
const as = (secret: string | null) => ({authorization: secret == null ? null : `Bearer ${secret}`});
const rowsOf = (workspaceId: string) => ledgerState(store).find((state) => state.workspaceId === workspaceId)!;
const lastCharge = () => store.db.prepare("SELECT * FROM usage ORDER BY id DESC LIMIT 1").get() as {uncached_input_tokens: number,
    cached_input_tokens: number, output_tokens: number, cost_micros: number, model: string, trace_id: string | null};
/** What the openai client's errors carry that these tests read. */
type ClientError = {status?: number, code?: string | null, headers?: Headers};
const remember = <T extends {secret: string}>(issued: T) => (secrets.push(issued.secret), issued);

before(async () => {
    team = await openTeamStore();
    store = team.store;
    setTestPrices(store);
    alpha = remember(addWorkspace(store, {name: "alpha"}));
    server = await startTestServer({dataDir: team.dataDir});
});
after(async () => {
    await server?.close();
    await team?.remove();
});

describe("401 invalid_api_key (spec §5 rule 4)", () => {
    test("missing, malformed, without ck_, unknown and wrong-secret keys", async () => {
        const unknown = `ck_0123456789ab_${"A".repeat(43)}`;
        const wrongSecret = alpha.secret.slice(0, -4) + (alpha.secret.endsWith("AAAA") ? "BBBB" : "AAAA");
        const cases: Array<[string | null, string]> = [[null, "missing"], ["Basic abc", "missing or malformed"], ["Bearer", "missing or malformed"],
            ["Bearer sk-0123456789", "ck_"], ["Bearer ck_short", "ck_"], [`Bearer ${unknown}`, "not valid"], [`Bearer ${wrongSecret}`, "not valid"]];
        for (const [authorization, words] of cases) {
            for (const path of ["/chat/completions", "/svc-1-decision/v1/decisions", "/models"]) {
                const reply = await callApi(server, {path, body: path === "/models" ? undefined : path.includes("decision") ? decision() : chat(), authorization});
                assertApiError(reply, 401, "invalid_api_key", "authentication_error", words);
            }
        }
        await assert.rejects(clientFor("sk-not-ours").chat.completions.create(chat() as never), (error: ClientError) => error.status === 401 && error.code === "invalid_api_key");
    });

    test("a revoked key fails at once; a rotated key's old secret fails at once and its new one works", async () => {
        const key = remember(addWorkspace(store, {name: "revocation"}));
        assert.equal((await callApi(server, {path: "/models", ...as(key.secret)})).status, 200);
        revokeKey(store, key.keyId);
        assertApiError(await callApi(server, {path: "/models", ...as(key.secret)}), 401, "invalid_api_key", "authentication_error", "revoked");
        const rotated = remember(createKey(store, {workspaceId: key.workspaceId}));
        assert.equal((await callApi(server, {path: "/models", ...as(rotated.secret)})).status, 200);
        const fresh = remember(rotateKey(store, rotated.key.id));
        assertApiError(await callApi(server, {path: "/models", ...as(rotated.secret)}), 401, "invalid_api_key", "authentication_error", "not valid");
        assert.equal((await callApi(server, {path: "/models", ...as(fresh.secret)})).status, 200);
    });

    test("a key created or rotated inside the activation window fails, then works once it has passed (spec §8)", async () => {
        const windowed = await startTestServer({dataDir: team.dataDir, keyActivationSeconds: 1});
        try {
            const created = remember(createKey(store, {workspaceId: alpha.workspaceId}));
            const call = (secret: string) => callApi(windowed, {path: "/models", ...as(secret)});
            assertApiError(await call(created.secret), 401, "invalid_api_key", "authentication_error", "not active yet");
            await new Promise((resolve) => setTimeout(resolve, 1100));
            assert.equal((await call(created.secret)).status, 200);
            const rotated = remember(rotateKey(store, created.key.id));
            assertApiError(await call(rotated.secret), 401, "invalid_api_key", "authentication_error", "not active yet");
            assert.equal((await callApi(server, {path: "/models", ...as(rotated.secret)})).status, 200, "a window of 0 s admits it at once");
        } finally {
            await windowed.close();
        }
    });
});

describe("402 insufficient_quota (spec §3, §5 rule 3)", () => {
    test("a workspace not activated, and one with no credit, serve nothing", async () => {
        const inactive = remember(addWorkspace(store, {name: "inactive", activate: false}));
        const broke = remember(addWorkspace(store, {name: "broke", credits: 0}));
        for (const [key, words] of [[inactive, "not activated"], [broke, "no prepaid credit"]] as const) {
            assertApiError(await callApi(server, {path: "/chat/completions", body: chat(), ...as(key.secret)}), 402, "insufficient_quota", "insufficient_quota", words);
            assertApiError(await callApi(server, {path: "/svc-1-decision/v1/decisions", body: decision(), ...as(key.secret)}), 402, "insufficient_quota", "insufficient_quota", words);
            await assert.rejects(clientFor(key.secret).chat.completions.create(chat() as never), (error: ClientError) => error.status === 402 && error.code === "insufficient_quota");
        }
        assert.equal(rowsOf(inactive.workspaceId).rows + rowsOf(broke.workspaceId).rows, 0);
    });

    test("concurrent requests on a nearly empty balance: one is admitted, the overdraft stays within one hold", async () => {
        const thin = remember(addWorkspace(store, {name: "thin", credits: 50}));
        const replies = await Promise.all(Array.from({length: 6}, () => callApi(server, {path: "/chat/completions", body: chat(8), ...as(thin.secret)})));
        assert.deepEqual(replies.map((reply) => reply.status).sort(), [200, 402, 402, 402, 402, 402], "the first holds what the balance has");
        const state = rowsOf(thin.workspaceId);
        assert.equal(state.balance, state.credits - state.cost, "balance = credits − charges, exactly");
        const hold = server.engine.context.contextSize * 7; // the largest rate, 7 micro-units a token, over one window
        assert.ok(state.balance < 0 && state.balance >= -hold, `balance ${state.balance} overdrawn by at most one hold (${hold})`);
        assertApiError(await callApi(server, {path: "/chat/completions", body: chat(), ...as(thin.secret)}), 402, "insufficient_quota", "insufficient_quota");
    });
});

describe("429 rate_limit_exceeded (spec §7, §8)", () => {
    test("past the workspace's request rate for a model: Retry-After, not charged, other models unaffected, success after it", async () => {
        const limited = remember(addWorkspace(store, {name: "limited"}));
        setRateLimit(store, {workspaceId: limited.workspaceId, model: "svc-1", requestsPerMinute: 60, tokensPerMinute: null});
        let reply;
        for (let sent = 0; sent < 80; sent++) {
            reply = await callApi(server, {path: "/models", ...as(limited.secret)});
            if (reply.status !== 200) break;
        }
        assertApiError(reply!, 429, "rate_limit_exceeded", "rate_limit_exceeded", "60 requests per minute");
        const before = rowsOf(limited.workspaceId);
        const refused = await callApi(server, {path: "/chat/completions", body: chat(), ...as(limited.secret)});
        assertApiError(refused, 429, "rate_limit_exceeded", "rate_limit_exceeded");
        const retryAfter = Number(refused.headers.get("retry-after"));
        assert.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${refused.headers.get("retry-after")}`);
        await assert.rejects(clientFor(limited.secret).chat.completions.create(chat() as never),
            (error: ClientError) => error.status === 429 && error.code === "rate_limit_exceeded" && error.headers?.get("retry-after") != null);
        assert.deepEqual(rowsOf(limited.workspaceId), before, "a 429 is never charged");
        assert.equal((await callApi(server, {path: "/svc-1-decision/v1/decisions", body: decision(), ...as(limited.secret)})).status, 200, "each model is independent");
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
        assert.equal((await callApi(server, {path: "/chat/completions", body: chat(), ...as(limited.secret)})).status, 200);
    });

    test("past the tokens per minute: the next request waits for Retry-After", async () => {
        const tokens = remember(addWorkspace(store, {name: "tokens"}));
        setRateLimit(store, {workspaceId: tokens.workspaceId, model: "svc-1", requestsPerMinute: null, tokensPerMinute: 60});
        const first = await callApi(server, {path: "/chat/completions", body: chat(56), ...as(tokens.secret)});
        assert.equal(first.status, 200);
        assert.ok(first.json.usage.total_tokens > 60, `${first.json.usage.total_tokens} tokens overdraw the 60-token bucket`);
        const refused = await callApi(server, {path: "/chat/completions", body: chat(), ...as(tokens.secret)});
        assertApiError(refused, 429, "rate_limit_exceeded", "rate_limit_exceeded", "60 tokens per minute");
        await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get("retry-after")) * 1000));
        assert.equal((await callApi(server, {path: "/chat/completions", body: chat(), ...as(tokens.secret)})).status, 200);
    });
});

describe("charging (spec §2.3, §7)", () => {
    test("uncached input, cached input and output at their own rates; streams are charged too", async () => {
        const client = clientFor(alpha.secret);
        for (const stream of [false, true, false]) {
            const traceId = `charge-${stream}-${Math.random()}`;
            let usage: OpenAI.CompletionUsage | undefined;
            if (stream) {
                const chunks = await client.chat.completions.create({...chat(6), stream: true, stream_options: {include_usage: true}} as never, {headers: {"X-Client-Trace-Id": traceId}});
                for await (const chunk of chunks as unknown as AsyncIterable<{usage?: OpenAI.CompletionUsage}>) usage = chunk.usage ?? usage;
            } else usage = (await client.chat.completions.create(chat(6) as never, {headers: {"X-Client-Trace-Id": traceId}})).usage;
            const cached = usage!.prompt_tokens_details?.cached_tokens ?? 0;
            const charged = lastCharge();
            assert.equal(charged.trace_id, traceId);
            assert.deepEqual([charged.uncached_input_tokens, charged.cached_input_tokens, charged.output_tokens], [usage!.prompt_tokens - cached, cached, usage!.completion_tokens]);
            assert.equal(charged.cost_micros, expectedCost("svc-1", {uncached: usage!.prompt_tokens - cached, cached, output: usage!.completion_tokens}));
        }
        assert.ok(lastCharge().cached_input_tokens > 0, "the repeated prompt was partly cached, and billed at the cached rate");
    });

    test("decision output tokens are free; their input is billed", async () => {
        const reply = await callApi(server, {path: "/svc-1-decision/v1/decisions", body: decision(true), ...as(alpha.secret)});
        assert.equal(reply.status, 200, reply.text);
        assert.ok(reply.json.usage.output_tokens > 0, "the explanation wrote output tokens");
        const charged = lastCharge();
        assert.equal(charged.model, "svc-1-decision");
        assert.deepEqual([charged.uncached_input_tokens, charged.output_tokens], [reply.json.usage.input_tokens, reply.json.usage.output_tokens]);
        assert.equal(charged.cost_micros, Math.ceil(reply.json.usage.input_tokens * 2_000_000 / 1_000_000));
    });

    test("a JSON-mode 400 for unsatisfiable output is charged with its usage; a decision 502 is not charged", async () => {
        const impossible = {type: "object", properties: {code: {type: "string", pattern: "^[0-9]{3}$", minLength: 4, maxLength: 4}}, required: ["code"]};
        const unsatisfied = await callApi(server, {path: "/chat/completions", ...as(alpha.secret),
            body: {model: "svc-1", messages: [{role: "user", content: "Describe the weather as JSON."}], max_tokens: 160,
                response_format: {type: "json_schema", json_schema: {name: "code", schema: impossible}}, seed: 5}});
        assertApiError(unsatisfied, 400, "invalid_request", "invalid_request_error", "response_format could not be satisfied");
        const {usage} = unsatisfied.json;
        const charged = lastCharge();
        assert.equal(charged.uncached_input_tokens + charged.cached_input_tokens, usage.prompt_tokens);
        assert.equal(charged.output_tokens, usage.completion_tokens);

        const before = rowsOf(alpha.workspaceId);
        const decide = LlamaDecisionEngine.prototype.decide;
        LlamaDecisionEngine.prototype.decide = async () => {
            throw new ApiError(502, "upstream_error", "the model service is unavailable");
        };
        try {
            assertApiError(await callApi(server, {path: "/svc-1-decision/v1/decisions", body: decision(), ...as(alpha.secret)}), 502, "upstream_error", "api_error");
        } finally {
            LlamaDecisionEngine.prototype.decide = decide;
        }
        assert.deepEqual(rowsOf(alpha.workspaceId), before, "no ledger row, no balance change");
        assert.equal((await callApi(server, {path: "/svc-1-decision/v1/decisions", body: decision(), ...as(alpha.secret)})).status, 200, "its hold was let go");
    });

    test("every balance equals its credits less its charges", () => {
        for (const state of ledgerState(store)) assert.equal(state.balance, state.credits - state.cost, state.workspaceId);
    });
});

test("the database files never contain a key's secret", async () => {
    assert.ok(secrets.length >= 10);
    const files = await Promise.all(["", "-wal", "-shm"].map((suffix) => readFile(store.filePath + suffix).catch(() => Buffer.alloc(0))));
    for (const secret of secrets) {
        const secretPart = secret.slice("ck_0123456789ab_".length);
        for (const bytes of files) {
            assert.equal(bytes.includes(secret), false);
            assert.equal(bytes.includes(secretPart), false);
        }
    }
});
