// The job runner against a real HTTP server (node:http) that answers decision requests the way the API
// shapes them: concurrency, progress, pause / resume / cancel, resuming without re-scoring, row errors
// and fatal errors.
import {test} from "node:test";
import assert from "node:assert/strict";
import {SvcClient} from "../sdk/SvcClient.ts";
import {decisionReply, requestText} from "../../test/support/decisionReply.ts";
import {json, startTestServer, type Reply} from "../../test/support/startTestServer.ts";
import type {RowBatch, SheetRow, JobProgress, JobSpec, ResultStore} from "./types.ts";
import {JobMismatchError, JobRunner, type JobRunnerOptions} from "./JobRunner.ts";
import {MemoryResultStore} from "./results.ts";

const questionSet = {
    format: "decisions" as const,
    questions: [
        {type: "predicate" as const, name: "positive", instructions: "Is the review positive?"},
        {type: "choice" as const, name: "topic", instructions: "Topic?", choices: [{value: "price"}, {value: "quality"}]}
    ]
};
const spec: JobSpec = {questionSet, input: {kind: "template", template: "review {{id}}: {{text}}"}, columns: ["id", "text"]};
const tableRows = (count: number): SheetRow[] => Array.from({length: count}, (_, index) => [index, index % 10 === 9 ? "bad row" : `text ${index}`]);

function batches(rows: SheetRow[], size = 7): () => AsyncGenerator<RowBatch> {
    return async function* () {
        for (let start = 0; start < rows.length; start += size) yield {start, rows: rows.slice(start, start + size)};
    };
}

/** Row index of a request, from the rendered template. */
const rowOf = (body: string) => Number(/review (\d+):/.exec(body)?.[1]);

function runner(url: string, store: ResultStore, rows: SheetRow[], extra: Partial<JobRunnerOptions> = {}) {
    return new JobRunner({
        jobId: "job-1",
        spec,
        rows: batches(rows),
        totalRows: rows.length,
        client: new SvcClient({baseUrl: url}),
        store,
        concurrency: 3,
        progressIntervalMs: 10,
        ...extra
    });
}

/** Counts requests in flight at the server and the highest count seen. */
function concurrencyProbe(reply: Reply) {
    const probe = {now: 0, max: 0};
    const wrapped: Reply = async (res, request) => {
        probe.now++;
        probe.max = Math.max(probe.max, probe.now);
        res.on("close", () => probe.now--);
        await reply(res, request);
    };
    return {probe, reply: wrapped};
}

test("every row is scored once with at most `concurrency` requests in flight; progress reports rate, ETA and completion", async () => {
    const {probe, reply} = concurrencyProbe(decisionReply({delayMs: 15}));
    const server = await startTestServer([reply]);
    try {
        const store = new MemoryResultStore();
        const rows = tableRows(40);
        const events: JobProgress[] = [];
        const final = await runner(server.url, store, rows, {onProgress: (progress) => events.push(progress)}).run();
        assert.equal(final.status, "completed");
        assert.equal(final.done, 40);
        assert.equal(final.succeeded, 40);
        assert.equal(server.requests.length, 40);
        assert.ok(probe.max <= 3 && probe.max >= 2, `max in flight ${probe.max}`);
        assert.deepEqual([...await store.doneRowIndexes("job-1")].sort((a, b) => a - b), rows.map((_, index) => index));
        assert.deepEqual(server.requests.map((request) => rowOf(request.body)).sort((a, b) => a - b), rows.map((_, index) => index));
        // Progress: done never goes back, a rate and an ETA were reported while running, the last event is final.
        for (let index = 1; index < events.length; index++) assert.ok(events[index].done >= events[index - 1].done);
        assert.ok(events.some((event) => event.status === "running" && event.rowsPerSecond !== null && event.rowsPerSecond > 0 && event.etaSeconds !== null && event.etaSeconds > 0));
        assert.deepEqual({status: events.at(-1)!.status, done: events.at(-1)!.done, eta: events.at(-1)!.etaSeconds}, {status: "completed", done: 40, eta: 0});
        const record = await store.getJob("job-1");
        assert.equal(record?.status, "completed");
        assert.equal(record?.totalRows, 40);
    } finally {
        await server.close();
    }
});

test("cancel stops at once; a new run of the same job scores only the rows without a result", async () => {
    const server = await startTestServer([decisionReply({delayMs: 10})]);
    try {
        const store = new MemoryResultStore();
        const rows = tableRows(30);
        let first: JobRunner | undefined = undefined;
        first = runner(server.url, store, rows, {onResult: () => {
            if (first !== undefined && first.progress().scoredThisRun >= 8) first.cancel();
        }});
        const stopped = await first.run();
        assert.equal(stopped.status, "cancelled");
        const afterCancel = await store.doneRowIndexes("job-1");
        assert.ok(afterCancel.size >= 8 && afterCancel.size < 30, `${afterCancel.size} stored`);
        assert.equal((await store.getJob("job-1"))?.status, "cancelled");

        // Requests the cancel aborted may still reach the server's log just after; let them land first.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await Promise.all(server.requests.map((request) => request.closed));
        const requestsBefore = server.requests.length;
        const resumed = await runner(server.url, store, rows).run();
        assert.equal(resumed.status, "completed");
        assert.equal(resumed.alreadyDone, afterCancel.size);
        assert.equal(resumed.scoredThisRun, 30 - afterCancel.size);
        const secondRun = server.requests.slice(requestsBefore).map((request) => rowOf(request.body));
        assert.equal(secondRun.length, 30 - afterCancel.size);
        assert.ok(secondRun.every((row) => !afterCancel.has(row)), "no stored row is sent again");
        assert.equal((await store.readResults("job-1")).length, 30);
    } finally {
        await server.close();
    }
});

test("pause lets the requests in flight finish and sends nothing more until resume", async () => {
    const server = await startTestServer([decisionReply({delayMs: 20})]);
    try {
        const store = new MemoryResultStore();
        let job: JobRunner | undefined = undefined;
        let paused: Promise<void> | undefined;
        job = runner(server.url, store, tableRows(20), {onResult: () => {
            if (paused === undefined && job!.progress().scoredThisRun >= 4) {
                job!.pause();
                paused = (async () => {
                    await new Promise((resolve) => setTimeout(resolve, 150));
                    const progress = job!.progress();
                    assert.equal(progress.status, "paused");
                    assert.equal(progress.inFlight, 0, "in-flight requests finished");
                    assert.equal(progress.rowsPerSecond, null, "no rate while paused");
                    const sent = server.requests.length;
                    assert.equal(sent, progress.done, "every request sent was answered and stored");
                    await new Promise((resolve) => setTimeout(resolve, 100));
                    assert.equal(server.requests.length, sent, "nothing sent while paused");
                    job!.resume();
                })();
            }
        }});
        const final = await job.run();
        await paused;
        assert.equal(final.status, "completed");
        assert.equal(final.done, 20);
        assert.equal(server.requests.length, 20);
    } finally {
        await server.close();
    }
});

test("a pause that comes while the rows are still being read sends nothing until resume", async () => {
    // The UI test clicks Pause right after Start: the first batch is still being read from the file then.
    const server = await startTestServer([decisionReply({delayMs: 5})]);
    try {
        let release!: () => void;
        const readable = new Promise<void>((resolve) => release = resolve);
        const rows = async function* () {
            await readable;
            yield* batches(tableRows(6))();
        };
        const job = runner(server.url, new MemoryResultStore(), [], {rows, totalRows: 6});
        const finished = job.run();
        while (job.status !== "running") await new Promise((resolve) => setTimeout(resolve, 1));
        job.pause();
        release();
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(server.requests.length, 0, "nothing sent while paused");
        job.resume();
        const final = await finished;
        assert.deepEqual([final.status, final.done, server.requests.length], ["completed", 6, 6]);
    } finally {
        await server.close();
    }
});

test("400 / 422 answers are the row's error and the job goes on; a 401 stops the job, unretried, and stores nothing for the row", async () => {
    const bad: Reply = (res, request) => requestText(request).includes("bad row")
        ? json(400, {error: {message: "input exceeds the context limit", type: "invalid_request_error", code: "request_rejected"}})(res, request)
        : decisionReply()(res, request);
    const server = await startTestServer([bad]);
    try {
        const store = new MemoryResultStore();
        const final = await runner(server.url, store, tableRows(30)).run();
        assert.equal(final.status, "completed");
        assert.deepEqual({ok: final.succeeded, failed: final.failed}, {ok: 27, failed: 3});
        const errors = (await store.readResults("job-1")).filter((result) => !result.ok);
        assert.deepEqual(errors.map((result) => result.rowIndex), [9, 19, 29]);
        assert.deepEqual(errors[0].error, {status: 400, code: "request_rejected", message: "input exceeds the context limit"});
        assert.equal(server.requests.length, 30, "a 400 is not retried");
        // A later run with rescoreErrors sends exactly the error rows again.
        const again = await runner(server.url, store, tableRows(30), {rescoreErrors: true}).run();
        assert.equal(again.scoredThisRun, 3);
        assert.equal(server.requests.length, 33);
    } finally {
        await server.close();
    }

    const unauthorized = await startTestServer([json(401, {error: {message: "bad key", type: "authentication_error", code: "invalid_api_key"}})]);
    try {
        const store = new MemoryResultStore();
        const final = await runner(unauthorized.url, store, tableRows(10), {concurrency: 1}).run();
        assert.equal(final.status, "failed");
        assert.match(final.fatalError ?? "", /401 invalid_api_key: bad key/);
        assert.equal(unauthorized.requests.length, 1);
        assert.equal((await store.doneRowIndexes("job-1")).size, 0);
        assert.equal((await store.getJob("job-1"))?.error, final.fatalError);
    } finally {
        await unauthorized.close();
    }
});

test("fail fast: when the first rows all fail the job stops instead of filling a sheet with errors", async () => {
    const server = await startTestServer([json(422, {detail: [{loc: ["body", "state"], msg: "too many JSON values", type: "value_error"}]})]);
    try {
        const store = new MemoryResultStore();
        const final = await runner(server.url, store, tableRows(50), {concurrency: 1, failFast: 4}).run();
        assert.equal(final.status, "failed");
        assert.match(final.fatalError ?? "", /first 4 rows all failed/);
        assert.equal(server.requests.length, 4);
    } finally {
        await server.close();
    }
});

test("a job cannot be resumed with other questions or input mapping", async () => {
    const server = await startTestServer([decisionReply()]);
    try {
        const store = new MemoryResultStore();
        await runner(server.url, store, tableRows(3)).run();
        const changed = new JobRunner({
            jobId: "job-1", spec: {...spec, input: {kind: "row"}}, rows: batches(tableRows(3)), client: new SvcClient({baseUrl: server.url}), store
        });
        await assert.rejects(changed.run(), JobMismatchError);
        // A calibration added to the set is no change to what is asked.
        const calibrated = new JobRunner({
            jobId: "job-1", spec: {...spec, questionSet: {...questionSet, calibration: {}}}, rows: batches(tableRows(3)), client: new SvcClient({baseUrl: server.url}), store
        });
        assert.equal((await calibrated.run()).status, "completed");
    } finally {
        await server.close();
    }
});

test("a source that breaks mid-run fails the job (resumable) instead of leaving it marked running", async () => {
    const server = await startTestServer([decisionReply()]);
    try {
        const store = new MemoryResultStore();
        const broken = async function* (): AsyncGenerator<RowBatch> {
            yield {start: 0, rows: tableRows(5)};
            throw new Error("the file went away");
        };
        const final = await runner(server.url, store, [], {rows: broken, totalRows: null}).run();
        assert.equal(final.status, "failed");
        assert.match(final.fatalError ?? "", /reading the rows failed: the file went away/);
        assert.equal((await store.getJob("job-1"))?.status, "failed");
    } finally {
        await server.close();
    }
});
