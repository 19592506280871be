// The experiment runner through a response cache, against a real HTTP server answering like the API: a question-set
// variant and a chat variant whose grader asks its own question. Every call of a cell goes through the cache, so a
// changed grader question re-sends the graders only; the variant's model is part of the key on the app's local
// connection.
import {test} from "node:test";
import assert from "node:assert/strict";
import {SvcClient} from "../sdk/SvcClient.ts";
import {MemoryResultStore} from "../scoring/results.ts";
import type {CachedResponse, ResponseCache} from "../scoring/responseCache.ts";
import {chatReply} from "../../test/support/chatReply.ts";
import {startTestServer} from "../../test/support/startTestServer.ts";
import {ExperimentRunner, type ExperimentRunSpec, type StoredCell} from "./ExperimentRunner.ts";
import type {CellResult, Check, Dataset, ExperimentSpec, Variant} from "./types.ts";

const dataset: Dataset = {
    id: "d", name: "tickets", columns: ["text", "urgent"], columnTypes: ["string", "string"],
    rows: Array.from({length: 5}, (_, index) => [`ticket ${index}`, index % 2 === 0 ? "yes" : "no"]),
    labelColumns: ["urgent"], inputColumns: ["text"], createdAt: 0, updatedAt: 0
};

const decisionVariant = (connection: Variant["connection"]): Variant => ({
    name: "A", connection,
    version: {itemId: "q", itemName: "urgent", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"},
        questionSet: {format: "decisions", questions: [{type: "predicate", name: "urgent", instructions: "Urgent?"}]}}}
});
const chatVariant = (connection: Variant["connection"], model?: string): Variant => ({
    name: "B", connection, ...(model === undefined ? {} : {model}), params: {temperature: 0},
    version: {itemId: "c", itemName: "reply", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "Answer {{text}}"}]}}}
});
const grader = (question: string): Check => ({kind: "grader", name: "polite", question, template: "Reply: {{reply}}"});

function spec(variants: Variant[], checks: Check[]): ExperimentSpec {
    return {format: "svc-experiment", version: 1, id: "exp", name: "tickets", dataset, sample: {kind: "all"}, variants, checks, seed: 1, createdAt: 0};
}

function memoryCache(): ResponseCache & {entries: Map<string, CachedResponse>} {
    const entries = new Map<string, CachedResponse>();
    return {
        entries,
        async get(key) {
            return entries.get(key);
        },
        async put(key, value) {
            entries.set(key, value);
        }
    };
}

async function run(url: string, experiment: ExperimentSpec, cache: ResponseCache): Promise<CellResult[]> {
    const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
    const final = await new ExperimentRunner({
        spec: experiment, dataset, store, cache, concurrency: 2, failFast: 0,
        clientFor: () => new SvcClient({baseUrl: url, retry: false})
    }).run();
    assert.equal(final.status, "completed");
    return (await store.readResults("exp")).map((stored) => stored.cell);
}

test("a cell is `cached` when every call it makes (its request, its grader's) was answered from the cache; a changed grader question re-sends the graders only", async () => {
    const server = await startTestServer([chatReply()]);
    try {
        const connection = {baseUrl: server.url};
        const cache = memoryCache();
        const first = await run(server.url, spec([decisionVariant(connection), chatVariant(connection)], [grader("Polite?")]), cache);
        assert.equal(server.requests.length, 15, "5 decision cells, 5 chat cells and their 5 grader questions");
        assert.ok(first.every((cell) => cell.ok && cell.cached === undefined));
        assert.equal(cache.entries.size, 15);

        const again = await run(server.url, spec([decisionVariant(connection), chatVariant(connection)], [grader("Polite?")]), cache);
        assert.equal(server.requests.length, 15, "nothing was sent");
        assert.ok(again.every((cell) => cell.cached === true && cell.attempts === 0));
        assert.deepEqual(again.map((cell) => [cell.response, cell.reply, cell.checks, cell.usage, cell.latencyMs]), first.map((cell) => [cell.response, cell.reply, cell.checks, cell.usage, cell.latencyMs]));

        const regraded = await run(server.url, spec([decisionVariant(connection), chatVariant(connection)], [grader("Courteous?")]), cache);
        const sent = server.requests.slice(15);
        assert.equal(sent.length, 5, "the 5 new grader questions only");
        assert.ok(sent.every((request) => request.url.endsWith("/decisions") && request.body.includes("Courteous?")));
        assert.deepEqual(regraded.map((cell) => cell.cached ?? false), first.map((cell) => cell.variant === 0));
    } finally {
        await server.close();
    }
});

test("on the app's local connection the variant's model is part of the key: another model's cells are sent", async () => {
    const server = await startTestServer([chatReply()]);
    try {
        const cache = memoryCache();
        await run(server.url, spec([chatVariant({profile: "local"}, "model-a.gguf")], []), cache);
        assert.equal(server.requests.length, 5);
        const otherModel = await run(server.url, spec([chatVariant({profile: "local"}, "model-b.gguf")], []), cache);
        assert.equal(server.requests.length, 10);
        assert.ok(otherModel.every((cell) => cell.cached === undefined));
        const sameModel = await run(server.url, spec([chatVariant({profile: "local"}, "model-a.gguf")], []), cache);
        assert.equal(server.requests.length, 10);
        assert.ok(sameModel.every((cell) => cell.cached === true));
    } finally {
        await server.close();
    }
});
