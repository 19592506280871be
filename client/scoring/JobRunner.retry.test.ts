// Spec §7 retry policy inside the job runner, against a local node:http server: 408 / 429 / 502 / 503 are
// retried (Retry-After honoured, else exponential backoff with jitter), 400 / 401 / 402 / 404 / 422 never are,
// and a row is stored exactly once however many attempts it took.
import {test} from "node:test";
import assert from "node:assert/strict";
import {SvcClient} from "../sdk/SvcClient.ts";
import {decisionReply} from "../../test/support/decisionReply.ts";
import {empty, json, startTestServer, type RecordedRequest, type Reply} from "../../test/support/startTestServer.ts";
import type {RowBatch, JobProgress} from "./types.ts";
import {JobRunner} from "./JobRunner.ts";
import {MemoryResultStore} from "./results.ts";

const spec = {
    questionSet: {format: "systemone" as const, questions: {positive: {type: "noul" as const, instructions: "Positive?"}}},
    input: {kind: "template" as const, template: "row {{id}}"},
    columns: ["id"]
};

const rowOf = (request: RecordedRequest) => Number(/row (\d+)/.exec(JSON.parse(request.body).state)?.[1]);
const envelope = (code: string, type = "invalid_request_error") => ({error: {message: `${code} happened`, type, code}});

/** Replies per row: the n-th request for row r gets script[r][n] (the last one repeats), each stamped with its arrival time. */
function scripted(script: Record<number, Reply[]>, fallback: Reply = decisionReply()) {
    const arrivals: Array<{row: number, at: number}> = [];
    const reply: Reply = (res, request) => {
        const row = rowOf(request);
        const seen = arrivals.filter((arrival) => arrival.row === row).length;
        arrivals.push({row, at: performance.now()});
        const replies = script[row] ?? [fallback];
        return replies[Math.min(seen, replies.length - 1)](res, request);
    };
    return {reply, arrivals};
}

function rows(count: number): () => AsyncGenerator<RowBatch> {
    return async function* () {
        yield {start: 0, rows: Array.from({length: count}, (_, index) => [index])};
    };
}

async function runJob(url: string, count: number, extra: {retry?: Record<string, unknown>, concurrency?: number, store?: MemoryResultStore} = {}) {
    const store = extra.store ?? new MemoryResultStore();
    const events: JobProgress[] = [];
    const final = await new JobRunner({
        jobId: "retry-job",
        spec,
        rows: rows(count),
        client: new SvcClient({baseUrl: url}),
        store,
        concurrency: extra.concurrency ?? 2,
        retry: {baseDelayMs: 40, ...extra.retry},
        onProgress: (progress) => events.push(progress),
        progressIntervalMs: 0
    }).run();
    return {final, store, events};
}

test("429 and 503 with Retry-After are retried after the time they ask for; the row is stored once with its attempt count", async () => {
    const {reply, arrivals} = scripted({
        1: [
            json(429, envelope("rate_limit_exceeded", "rate_limit_exceeded"), {"retry-after": "0.3"}),
            json(503, envelope("service_unavailable", "api_error"), {"retry-after": "0.2"}),
            decisionReply()
        ]
    });
    const server = await startTestServer([reply]);
    try {
        const {final, store, events} = await runJob(server.url, 3);
        assert.equal(final.status, "completed");
        assert.equal(final.done, 3);
        assert.equal(final.retries, 2);
        const times = arrivals.filter((arrival) => arrival.row === 1).map((arrival) => arrival.at);
        assert.equal(times.length, 3);
        // Retry-After: 0.3 then 0.2 seconds (timer slack allowed below, never above).
        assert.ok(times[1] - times[0] >= 295, `waited ${times[1] - times[0]} ms after the 429`);
        assert.ok(times[2] - times[1] >= 195, `waited ${times[2] - times[1]} ms after the 503`);
        const results = await store.readResults("retry-job");
        assert.deepEqual(results.map((result) => result.rowIndex), [0, 1, 2]);
        assert.equal(results[1].attempts, 3);
        assert.equal(results[0].attempts, 1);
        // The UI saw the retries as they happened, with the error that caused them.
        assert.ok(events.some((event) => event.retries === 1 && event.lastError?.code === "rate_limit_exceeded"));
        assert.ok(events.some((event) => event.retries === 2 && event.lastError?.code === "service_unavailable"));
    } finally {
        await server.close();
    }
});

test("408 and 502 without Retry-After back off exponentially with jitter: waits below base * 2^(n-1)", async () => {
    const {reply, arrivals} = scripted({0: [empty(502), json(408, envelope("request_timeout")), decisionReply()]});
    const server = await startTestServer([reply]);
    try {
        // A fixed draw of 0.999 makes each jittered wait just under its cap: 40 ms, then 80 ms.
        const {final, store} = await runJob(server.url, 1, {retry: {random: () => 0.999}});
        assert.equal(final.status, "completed");
        const times = arrivals.map((arrival) => arrival.at);
        assert.equal(times.length, 3);
        assert.ok(times[1] - times[0] >= 38, `first wait ${times[1] - times[0]}`);
        assert.ok(times[2] - times[1] >= 78, `second wait ${times[2] - times[1]}`);
        assert.equal((await store.readResults("retry-job"))[0].attempts, 3);
    } finally {
        await server.close();
    }
});

test("400, 401, 402, 404 and 422 are never retried unchanged", async () => {
    const cases: Array<[number, Reply, "row" | "fatal"]> = [
        [400, json(400, envelope("invalid_request")), "row"],
        [401, json(401, envelope("invalid_api_key", "authentication_error")), "fatal"],
        [402, json(402, envelope("insufficient_quota", "insufficient_quota")), "fatal"],
        [404, json(404, envelope("not_found")), "fatal"],
        [422, json(422, {detail: [{loc: ["body", "questions"], msg: "bad", type: "value_error"}]}), "row"]
    ];
    for (const [status, refusal, kind] of cases) {
        const {reply, arrivals} = scripted({0: [refusal, decisionReply()]});
        const server = await startTestServer([reply]);
        try {
            const {final, store} = await runJob(server.url, 1, {retry: {baseDelayMs: 1}});
            assert.equal(arrivals.length, 1, `status ${status} was sent once`);
            assert.equal(final.retries, 0);
            const stored = await store.readResults("retry-job");
            if (kind === "row") {
                assert.equal(final.status, "completed", `status ${status}`);
                assert.equal(stored.length, 1);
                assert.equal(stored[0].ok, false);
                assert.equal(stored[0].error?.status, status);
            } else {
                assert.equal(final.status, "failed", `status ${status}`);
                assert.equal(stored.length, 0, `status ${status}: nothing stored, so a resume scores the row`);
            }
        } finally {
            await server.close();
        }
    }
});

test("retries running out stops the job without storing the row; resuming later scores it", async () => {
    const busy = json(503, envelope("service_unavailable", "api_error"), {"retry-after": "0.05"});
    const {reply, arrivals} = scripted({2: [busy]});
    const server = await startTestServer([reply]);
    const store = new MemoryResultStore();
    try {
        const {final} = await runJob(server.url, 4, {retry: {maxAttempts: 3}, concurrency: 1, store});
        assert.equal(final.status, "failed");
        assert.match(final.fatalError ?? "", /row 2: 503 service_unavailable/);
        assert.equal(arrivals.filter((arrival) => arrival.row === 2).length, 3, "three attempts, then it gave up");
        assert.deepEqual([...await store.doneRowIndexes("retry-job")], [0, 1]);
    } finally {
        await server.close();
    }
    const healthy = await startTestServer([decisionReply()]);
    try {
        const {final} = await runJob(healthy.url, 4, {store});
        assert.equal(final.status, "completed");
        assert.equal(final.scoredThisRun, 2);
        assert.deepEqual(healthy.requests.map(rowOf).sort(), [2, 3]);
        assert.deepEqual((await store.readResults("retry-job")).map((result) => result.rowIndex), [0, 1, 2, 3]);
    } finally {
        await healthy.close();
    }
});

test("a 429 with Retry-After never fails the job, however many times it comes: the row waits and is scored", async () => {
    const limited = json(429, envelope("rate_limit_exceeded", "rate_limit_exceeded"), {"retry-after": "0.02"});
    const {reply, arrivals} = scripted({1: [limited, limited, limited, limited, limited, limited, decisionReply()]});
    const server = await startTestServer([reply]);
    try {
        const {final, store} = await runJob(server.url, 3, {retry: {maxAttempts: 2}});
        assert.equal(final.status, "completed", final.fatalError ?? "");
        assert.equal(final.failed, 0);
        assert.equal(arrivals.filter((arrival) => arrival.row === 1).length, 7, "six refusals waited out with two attempts allowed");
        assert.equal((await store.readResults("retry-job")).find((result) => result.rowIndex === 1)?.attempts, 7);
    } finally {
        await server.close();
    }
});

test("under a rate limit the ETA follows the pace the limit allows, not the burst it let through first", async () => {
    // A token bucket like the engine's: a burst of 6, then one request per 200 ms; a refusal says exactly when.
    const burst = 6, refillMs = 200;
    let level = burst, updatedAt = performance.now();
    const limited: Reply = (res, request) => {
        const now = performance.now();
        level = Math.min(burst, level + (now - updatedAt) / refillMs);
        updatedAt = now;
        if (level < 1) return json(429, envelope("rate_limit_exceeded", "rate_limit_exceeded"), {"retry-after": (((1 - level) * refillMs) / 1000).toFixed(3)})(res, request);
        level -= 1;
        return decisionReply()(res, request);
    };
    const server = await startTestServer([limited]);
    try {
        const count = 20;
        const events: Array<{at: number, progress: JobProgress}> = [];
        const final = await new JobRunner({
            jobId: "paced-job", spec, rows: rows(count), totalRows: count, client: new SvcClient({baseUrl: server.url}), store: new MemoryResultStore(),
            concurrency: 3, retry: {maxAttempts: 50}, progressIntervalMs: 0, onProgress: (progress) => events.push({at: performance.now(), progress})
        }).run();
        const finishedAt = performance.now();
        assert.equal(final.status, "completed");
        assert.equal(final.done, count);
        assert.equal(final.rateLimited, false, "a finished job is not paced by anything");
        const limited = events.filter(({progress}) => progress.status === "running" && progress.rateLimited && progress.done <= count - 3);
        assert.ok(limited.length > 0, "progress while the limit set the pace");
        // No estimate from the burst: either none yet, or one from the pace the limit allows.
        const paced = limited.filter(({progress}) => progress.etaSeconds !== null);
        assert.ok(paced.length > 0, "an estimate once refused rows went through");
        for (const {at, progress} of paced) {
            // What was left took about (rows left) x 200 ms; the estimate is within a factor of two of the time it really took.
            const actual = (finishedAt - at) / 1000;
            assert.ok(progress.etaSeconds! > actual / 2 && progress.etaSeconds! < actual * 2, `at ${progress.done} rows: ETA ${progress.etaSeconds!.toFixed(2)} s, took ${actual.toFixed(2)} s`);
        }
    } finally {
        await server.close();
    }
});
