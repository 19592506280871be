// The experiment runner against a real HTTP server (node:http) that answers chat, Responses and decision requests
// in the API's shapes: what each cell stores, the order cells go in, model groups run in turn, Retry-After, and a
// run stopped mid-way and resumed on the same store that sends no finished cell twice.
import {test} from "node:test";
import assert from "node:assert/strict";
import {SvcClient} from "../sdk/SvcClient.ts";
import {MemoryResultStore} from "../scoring/results.ts";
import {chatReply} from "../../test/support/chatReply.ts";
import {json, startTestServer, type RecordedRequest, type Reply} from "../../test/support/startTestServer.ts";
import {cellKey, ExperimentMismatchError, ExperimentRunner, experimentFingerprint, type ExperimentRunnerOptions, type ExperimentStore, type StoredCell, type ExperimentRunSpec} from "./ExperimentRunner.ts";
import type {CellResult, Dataset, ExperimentSpec, Variant} from "./types.ts";

const dataset: Dataset = {
    id: "d", name: "capitals", columns: ["country", "capital"], columnTypes: ["string", "string"],
    rows: Array.from({length: 12}, (_, index) => [`country ${index}`, `city ${index}`]),
    labelColumns: ["capital"], inputColumns: ["country"], createdAt: 0, updatedAt: 0
};

const chatVariant = (name: string, connection: Variant["connection"], model?: string): Variant => ({
    name, connection, ...(model === undefined ? {} : {model}), params: {temperature: 0},
    version: {itemId: "p", itemName: "capital", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "Capital of {{country}}?"}], max_tokens: 8}}}
});

function spec(variants: Variant[], extra: Partial<ExperimentSpec> = {}): ExperimentSpec {
    return {format: "svc-experiment", version: 1, id: "exp", name: "capitals", dataset, sample: {kind: "all"}, variants, checks: [{kind: "equals", column: "capital"}], seed: 1, createdAt: 0, ...extra};
}

/** The row a chat request is about, from its filled message. */
const rowOf = (request: RecordedRequest) => Number(/country (\d+)/.exec(request.body)?.[1]);

/** Chat: answers "city N" for even rows and "no idea" for odd ones; decisions in the real shapes; optional delay. */
const apiReply = (delayMs = 0): Reply => chatReply({delayMs, answer: (request) => rowOf(request) % 2 === 0 ? `city ${rowOf(request)}` : "no idea"});

function runner(url: string, store: ExperimentStore, experiment: ExperimentSpec, extra: Partial<ExperimentRunnerOptions> = {}) {
    return new ExperimentRunner({
        spec: experiment, dataset, store,
        clientFor: (connection) => new SvcClient({baseUrl: "baseUrl" in connection ? connection.baseUrl : url, retry: {baseDelayMs: 1, maxDelayMs: 5}}),
        concurrency: 3, progressIntervalMs: 10, ...extra
    });
}

async function cells(store: ExperimentStore): Promise<CellResult[]> {
    return (await store.readResults("exp")).map((stored) => stored.cell);
}

test("each cell stores the request as sent, the response, reply, checks, usage and latency; rows go variant by variant", async () => {
    const server = await startTestServer([apiReply()]);
    try {
        const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
        const responses: Variant = {...chatVariant("B", {baseUrl: server.url}), version: {...chatVariant("B", {baseUrl: server.url}).version, prompt: {kind: "chat", endpoint: "responses", body: {input: "Capital of {{country}}?", max_output_tokens: 8}}}};
        const grader = {kind: "grader" as const, name: "grounded", question: "Does the reply name a city?", template: "Q: {{country}} A: {{reply}}"};
        const final = await runner(server.url, store, spec([chatVariant("A", {baseUrl: server.url}), responses], {checks: [{kind: "equals", column: "capital"}, {kind: "regex", pattern: "^city \\d+$"}, grader]}), {concurrency: 1}).run();
        assert.equal(final.status, "completed");
        assert.deepEqual(final.variants, [{done: 12, failed: 0, total: 12}, {done: 12, failed: 0, total: 12}]);
        const stored = await cells(store);
        assert.equal(stored.length, 24);
        const first = stored.find((cell) => cell.rowIndex === 2 && cell.variant === 0)!;
        assert.deepEqual(first.request, {messages: [{role: "user", content: "Capital of country 2?"}], max_tokens: 8, temperature: 0, model: "svc-1"});
        assert.equal(first.reply, "city 2");
        assert.deepEqual(first.usage, {promptTokens: 7, completionTokens: 2, totalTokens: 9});
        assert.deepEqual(first.checks?.map((check) => [check.name, check.pass]), [["equals_capital", true], ["regex", true], ["grounded", first.checks![2].score >= 0.5]]);
        assert.ok(first.latencyMs > 0 && first.attempts === 1);
        const odd = stored.find((cell) => cell.rowIndex === 3 && cell.variant === 1)!;
        assert.equal(odd.reply, "no idea");
        assert.deepEqual(odd.request, {input: "Capital of country 3?", max_output_tokens: 8, temperature: 0, model: "svc-1"});
        assert.deepEqual(odd.checks?.slice(0, 2).map((check) => check.pass), [false, false]);
        // The request sent is the stored one, byte for byte; each chat call is followed by its grader's decision.
        const chatRequests = server.requests.filter((request) => !request.url.endsWith("/decisions"));
        assert.deepEqual(JSON.parse(chatRequests[0].body), stored.find((cell) => cell.rowIndex === 0 && cell.variant === 0)!.request);
        // Interleaved: row 0 A, row 0 B, row 1 A, ...
        assert.deepEqual(chatRequests.slice(0, 4).map((request) => [rowOf(request), request.url.endsWith("/responses") ? "B" : "A"]), [[0, "A"], [0, "B"], [1, "A"], [1, "B"]]);
        assert.equal(server.requests.length, 48, "24 cells and 24 grader questions");
    } finally {
        await server.close();
    }
});

test("variants on the local engine with different models run in turn, each after beforeGroup, with nothing in flight", async () => {
    let inFlight = 0;
    const reply = apiReply(5);
    const server = await startTestServer([async (res, request) => {
        inFlight++;
        await reply(res, request);
        inFlight--;
    }]);
    try {
        const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
        const loaded: string[] = [];
        const experiment = spec([chatVariant("small", {profile: "local"}, "small.gguf"), chatVariant("big", {profile: "local"}, "big.gguf"), chatVariant("hosted", {profile: "remote-1"})]);
        const final = await runner(server.url, store, experiment, {
            beforeGroup: async (group) => {
                assert.equal(inFlight, 0, "the previous group has finished");
                loaded.push(`${group.model}:${group.variants.join(",")}`);
            }
        }).run();
        assert.equal(final.status, "completed");
        // The hosted variant runs beside the first local model; the second local model after both.
        assert.deepEqual(loaded, ["small.gguf:0,2", "big.gguf:1"]);
        const order = (await cells(store)).sort((a, b) => a.completedAt - b.completedAt).map((cell) => cell.variant);
        assert.ok(order.slice(0, 24).every((variant) => variant !== 1) && order.slice(24).every((variant) => variant === 1), order.join(""));
    } finally {
        await server.close();
    }
});

test("a 429 with Retry-After is waited out and retried; a 400 is the cell's error and the run goes on", async () => {
    const reply = apiReply();
    let refusals = 0;
    const server = await startTestServer([(res, request) => {
        if (rowOf(request) === 5) return json(400, {error: {message: "too long", type: "invalid_request_error", code: "context_length_exceeded"}})(res, request);
        if (rowOf(request) === 1 && refusals++ < 2) return json(429, {error: {message: "slow down", type: "rate_limit_error", code: "rate_limited"}}, {"retry-after": "0"})(res, request);
        return reply(res, request);
    }]);
    try {
        const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
        const final = await runner(server.url, store, spec([chatVariant("A", {baseUrl: server.url}), chatVariant("B", {baseUrl: server.url})])).run();
        assert.equal(final.status, "completed");
        assert.equal(final.retries, 2);
        assert.deepEqual([final.succeeded, final.failed], [22, 2]);
        const failed = (await cells(store)).filter((cell) => !cell.ok);
        assert.deepEqual(failed.map((cell) => [cell.rowIndex, cell.error?.code]), [[5, "context_length_exceeded"], [5, "context_length_exceeded"]]);
        assert.equal(failed[0].request.messages !== undefined, true, "the refused request is stored too");
    } finally {
        await server.close();
    }
});

test("stopped mid-run and resumed on the same store: no stored cell is sent again, every cell is stored once", async () => {
    const server = await startTestServer([apiReply(8)]);
    try {
        const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
        // B differs from A by its temperature, which tells the server's log which variant a request was.
        const experiment = spec([chatVariant("A", {baseUrl: server.url}), {...chatVariant("B", {baseUrl: server.url}), params: {temperature: 1}}], {checks: []});
        let first: ExperimentRunner | undefined = undefined;
        first = runner(server.url, store, experiment, {onResult: () => {
            if (first!.progress().scoredThisRun >= 7) first!.cancel();
        }});
        const stopped = await first.run();
        assert.equal(stopped.status, "cancelled");
        const kept = new Set((await store.readResults("exp")).map((stored) => stored.rowIndex));
        assert.ok(kept.size >= 7 && kept.size < 24, `${kept.size} stored`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const before = server.requests.length;

        const resumed = await runner(server.url, store, experiment).run();
        assert.equal(resumed.status, "completed");
        assert.equal(resumed.alreadyDone, kept.size);
        const again = server.requests.slice(before).map((request) => cellKey(rowOf(request), JSON.parse(request.body).temperature, 2));
        assert.equal(again.length, 24 - kept.size);
        assert.ok(again.every((key) => !kept.has(key)), "no stored cell was sent again");
        assert.deepEqual((await store.readResults("exp")).map((stored) => stored.rowIndex), Array.from({length: 24}, (_, index) => index));
        assert.deepEqual(resumed.variants.map((variant) => variant.done), [12, 12]);

        // Run again on half the rows: the progress counts that sample's cells, all already stored, and sends nothing.
        const half = await runner(server.url, store, experiment, {rows: [0, 1, 2, 3, 4, 5]}).run();
        assert.deepEqual([half.totalRows, half.done, half.alreadyDone, half.succeeded, half.scoredThisRun, half.etaSeconds], [12, 12, 12, 12, 0, 0]);
        assert.deepEqual(half.variants, [{done: 6, failed: 0, total: 6}, {done: 6, failed: 0, total: 6}]);
        assert.equal(server.requests.length, before + 24 - kept.size);

        // The same job id with other variants is refused rather than mixed.
        await assert.rejects(runner(server.url, store, {...experiment, checks: [{kind: "is_json"}]}).run(), ExperimentMismatchError);
    } finally {
        await server.close();
    }
});

test("with repeats each row of each variant is three cells with seeds 1, 2, 3; stopped and resumed, none is sent twice", async () => {
    const server = await startTestServer([apiReply(8)]);
    try {
        const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
        // A and B differ by temperature, which tells the server's log which variant a request was.
        const hot = (name: string, temperature: number): Variant => ({...chatVariant(name, {baseUrl: server.url}), params: {temperature}});
        const experiment = spec([hot("A", 1), hot("B", 0.9)], {checks: [], repeats: 3});
        const keyOf = (body: {temperature: number, seed: number}, row: number) => cellKey(row, body.temperature === 1 ? 0 : 1, 2, body.seed - 1, 3);
        let first: ExperimentRunner | undefined = undefined;
        first = runner(server.url, store, experiment, {onResult: () => {
            if (first!.progress().scoredThisRun >= 10) first!.cancel();
        }});
        assert.equal((await first.run()).status, "cancelled");
        const kept = new Set((await store.readResults("exp")).map((stored) => stored.rowIndex));
        assert.ok(kept.size >= 10 && kept.size < 72, `${kept.size} stored`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const before = server.requests.length;
        const resumed = await runner(server.url, store, experiment).run();
        assert.equal(resumed.status, "completed");
        assert.deepEqual(resumed.variants, [{done: 36, failed: 0, total: 36}, {done: 36, failed: 0, total: 36}]);
        // The resumed run sent exactly the cells not stored, each (row, variant, seed) once.
        const again = server.requests.slice(before).map((request) => keyOf(JSON.parse(request.body), rowOf(request)));
        assert.equal(again.length, 72 - kept.size);
        assert.ok(again.every((key) => !kept.has(key)), "no stored cell was sent again");
        assert.equal(new Set([...kept, ...again]).size, 72);
        const cells = (await store.readResults("exp")).map((stored) => stored.cell);
        assert.deepEqual(cells.filter((cell) => cell.rowIndex === 4 && cell.variant === 1).map((cell) => [cell.repeat ?? 0, cell.request.seed]).sort(), [[0, 1], [1, 2], [2, 3]]);
    } finally {
        await server.close();
    }
});

test("a high concurrency keeps few abort listeners on any one signal: no MaxListenersExceededWarning", async () => {
    const server = await startTestServer([apiReply(2)]);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
        const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
        const final = await runner(server.url, store, spec([chatVariant("A", {baseUrl: server.url}), chatVariant("B", {baseUrl: server.url})], {checks: []}), {concurrency: 16}).run();
        assert.equal(final.status, "completed");
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(warnings.filter((name) => name === "MaxListenersExceededWarning"), []);
    } finally {
        process.off("warning", onWarning);
        await server.close();
    }
});

test("a run resumes after a question set's name or calibration changed (never sent), not after its questions did", () => {
    const decision = (questionSet: Record<string, unknown>): Variant => ({
        name: "D", connection: {baseUrl: "http://127.0.0.1:1"},
        version: {itemId: "q", itemName: "q", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "template", template: "{{country}}"}, questionSet: questionSet as never}}
    });
    const questions = [{type: "predicate", name: "big", instructions: "Is it big?"}];
    const base = experimentFingerprint(spec([decision({format: "decisions", questions})]), dataset);
    assert.equal(experimentFingerprint(spec([decision({format: "decisions", questions, name: "renamed", calibration: {big: {method: "platt", a: 1, b: 0}}})]), dataset), base);
    assert.notEqual(experimentFingerprint(spec([decision({format: "decisions", questions: [{...questions[0], instructions: "Is it large?"}]})]), dataset), base);
    assert.notEqual(experimentFingerprint(spec([decision({format: "decisions", questions})]), {...dataset, rows: dataset.rows.slice(1)}), base);
});
