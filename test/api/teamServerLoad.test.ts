// Exactness under load: 200 concurrent mixed requests (chat, streamed chat, completions, decisions)
// over 3 keys in 2 workspaces. The ledger must add up to exactly the usage the responses reported, and each
// balance to its credits less that cost: no charge lost, doubled or raced.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import {meteredTokens, type AnyUsage} from "../../protocol/usage.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {addWorkspace, expectedCost, ledgerByTrace, ledgerState, openTeamStore, setTestPrices} from "./utils/teamServer.ts";
import {createKey} from "../../native/service/keys.ts";

let team: Awaited<ReturnType<typeof openTeamStore>>;
let server: TestServer;

before(async () => {
    team = await openTeamStore();
    // 4 parallel sequences and a queue that holds every request: this test is about the ledger, not 429 service_busy.
    server = await startTestServer({dataDir: team.dataDir, parallel: 4, maxQueue: 400, contextSize: 512});
});
after(async () => {
    await server?.close();
    await team?.remove();
});

type Kind = "chat" | "stream" | "completions" | "decisions";
type Sent = {traceId: string, workspaceId: string, model: string, kind: Kind, usage: AnyUsage};

/** One request of `kind` with `secret`; resolves to the usage its response reported. */
async function send(kind: Kind, secret: string, traceId: string, index: number): Promise<AnyUsage> {
    const client = new OpenAI({baseURL: server.baseUrl, apiKey: secret, maxRetries: 0, timeout: 120_000});
    const options = {headers: {"X-Client-Trace-Id": traceId}};
    const messages = [{role: "user" as const, content: `Hello number ${index % 7}`}];
    if (kind === "chat") return (await client.chat.completions.create({model: "svc-1", messages, max_tokens: 3}, options)).usage!;
    if (kind === "stream") {
        let usage: AnyUsage | undefined;
        const stream = await client.chat.completions.create({model: "svc-1", messages, max_tokens: 3, stream: true, stream_options: {include_usage: true}}, options);
        for await (const chunk of stream) usage = chunk.usage ?? usage;
        return usage!;
    }
    if (kind === "completions") return (await client.completions.create({model: "svc-1", prompt: `Once upon a time ${index % 5}`, max_tokens: 3}, options)).usage!;
    const response = await fetch(`${server.url}/svc-1-decision/v1/decisions`, {
        method: "POST",
        headers: {"Authorization": `Bearer ${secret}`, "Content-Type": "application/json", "X-Client-Trace-Id": traceId},
        body: JSON.stringify({model: "svc-1-decision", input: `Item ${index % 9}: a cat.`, questions: [{type: "predicate", instructions: "Is it a cat?"}]})
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as {usage: AnyUsage}).usage;
}

test("200 concurrent mixed requests over 3 keys in 2 workspaces: ledger == reported usage, balance == credits − cost", async () => {
    const {store} = team;
    setTestPrices(store);
    const one = addWorkspace(store, {name: "one", credits: 50_000_000});
    const second = createKey(store, {workspaceId: one.workspaceId, owner: {type: "user", userId: "ada"}, visibility: "private"});
    const two = addWorkspace(store, {name: "two", credits: 30_000_000});
    const keys = [{secret: one.secret, workspaceId: one.workspaceId}, {secret: second.secret, workspaceId: one.workspaceId}, {secret: two.secret, workspaceId: two.workspaceId}];
    const kinds: Kind[] = ["chat", "stream", "completions", "decisions"];

    const started = performance.now();
    const sent: Sent[] = await Promise.all(Array.from({length: 200}, async (_, index) => {
        const key = keys[index % keys.length];
        const kind = kinds[Math.floor(index / keys.length) % kinds.length];
        const traceId = `load-${index}`;
        const usage = await send(kind, key.secret, traceId, index);
        return {traceId, workspaceId: key.workspaceId, model: kind === "decisions" ? "svc-1-decision" : "svc-1", kind, usage};
    }));
    const seconds = (performance.now() - started) / 1000;
    assert.deepEqual(new Set(sent.map((request) => request.kind)), new Set(kinds));

    // Every request is in the ledger once, under its trace id, with the tokens its response reported.
    const byTrace = ledgerByTrace(store);
    assert.equal(byTrace.size, 200);
    for (const request of sent) {
        const rows = byTrace.get(request.traceId) ?? [];
        assert.equal(rows.length, 1, `${request.traceId} charged ${rows.length} times`);
        const tokens = meteredTokens(request.usage);
        assert.deepEqual({uncached: rows[0].uncached, cached: rows[0].cached, output: rows[0].output},
            {uncached: tokens.uncachedInputTokens, cached: tokens.cachedInputTokens, output: tokens.outputTokens}, request.traceId);
    }

    // Per workspace: the ledger's sums are the reported usage's sums, and balance = credits − cost exactly.
    for (const state of ledgerState(store)) {
        const mine = sent.filter((request) => request.workspaceId === state.workspaceId).map((request) => ({request, tokens: meteredTokens(request.usage)}));
        const reported = {
            rows: mine.length,
            uncached: mine.reduce((sum, {tokens}) => sum + tokens.uncachedInputTokens, 0),
            cached: mine.reduce((sum, {tokens}) => sum + tokens.cachedInputTokens, 0),
            output: mine.reduce((sum, {tokens}) => sum + tokens.outputTokens, 0),
            cost: mine.reduce((sum, {request, tokens}) => sum + expectedCost(request.model,
                {uncached: tokens.uncachedInputTokens, cached: tokens.cachedInputTokens, output: tokens.outputTokens}), 0)
        };
        assert.deepEqual({rows: state.rows, uncached: state.uncached, cached: state.cached, output: state.output, cost: state.cost}, reported, state.workspaceId);
        assert.equal(state.balance, state.credits - state.cost, `${state.workspaceId}: balance = credits − cost`);
        console.log(`${state.workspaceId}: ${state.rows} requests, ${state.uncached} uncached + ${state.cached} cached input, ${state.output} output tokens, ` +
            `cost ${state.cost} µ, balance ${state.balance} µ = ${state.credits} − ${state.cost}`);
    }
    console.log(`200 requests in ${seconds.toFixed(1)} s`);
});
