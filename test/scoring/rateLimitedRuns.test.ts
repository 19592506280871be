// A scoring job (JobRunner) and an experiment (ExperimentRunner) on the real team server, its workspace's rate limit
// for svc-1-decision set low: the limit slows each run to the pace it allows and fails neither. The server's bucket
// is emptied first (as by earlier work), so every row waits for the limit and the time a run takes is the limit's.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {SvcClient} from "../../client/sdk/SvcClient.ts";
import {JobRunner} from "../../client/scoring/JobRunner.ts";
import {MemoryResultStore} from "../../client/scoring/results.ts";
import type {JobSpec, RowBatch} from "../../client/scoring/types.ts";
import {ExperimentRunner, type ExperimentRunSpec, type StoredCell} from "../../client/experiments/ExperimentRunner.ts";
import type {Dataset, ExperimentSpec} from "../../client/experiments/types.ts";
import {setRateLimit} from "../../native/service/pricing.ts";
import {callApi} from "../api/utils/callApi.ts";
import {startTestServer, type TestServer} from "../api/utils/startTestServer.ts";
import {addWorkspace, openTeamStore, setTestPrices} from "../api/utils/teamServer.ts";

/** Requests a minute the workspace may send to svc-1-decision, and the rows (cells) each run scores. */
const perMinute = 120;
const rowCount = 20;

let team: Awaited<ReturnType<typeof openTeamStore>>;
let server: TestServer;

const questionSet = {format: "decisions" as const, questions: [{type: "predicate" as const, name: "cat", instructions: "Is it about a cat?"}]};
const texts = Array.from({length: rowCount}, (_, index) => `Review ${index}: a cat sat on mat ${index}.`);

before(async () => {
    team = await openTeamStore();
    setTestPrices(team.store);
    server = await startTestServer({dataDir: team.dataDir});
});
after(async () => {
    await server?.close();
    await team?.remove();
});

/** A workspace limited to `perMinute` decision requests, its bucket emptied by requests until the first 429. */
async function limitedKey(name: string): Promise<string> {
    const {workspaceId, secret} = addWorkspace(team.store, {name});
    setRateLimit(team.store, {workspaceId, model: "svc-1-decision", requestsPerMinute: perMinute, tokensPerMinute: null});
    const body = {model: "svc-1-decision", input: "A dog.", questions: [{type: "predicate", instructions: "Is it about a cat?"}]};
    for (let sent = 0; ; sent++) {
        assert.ok(sent <= perMinute + 10, "the bucket holds a minute's worth, then refuses");
        const reply = await callApi(server, {path: "/svc-1-decision/v1/decisions", body, authorization: `Bearer ${secret}`});
        if (reply.status === 429) return secret;
        assert.equal(reply.status, 200);
    }
}

/** What the limit implies for `count` requests from an empty bucket: one per 60 / perMinute seconds. */
const impliedSeconds = (count: number) => count * 60 / perMinute;

function assertPaced(label: string, seconds: number, count: number) {
    const implied = impliedSeconds(count);
    // Not faster than the limit allows (less one request's worth the bucket held), and not much slower.
    assert.ok(seconds >= implied - 60 / perMinute - 0.2 && seconds <= implied * 1.35 + 1,
        `${label}: ${count} requests in ${seconds.toFixed(1)} s; the limit implies ${implied.toFixed(1)} s`);
}

test("a scoring job under a rate limit: every row scored, none failed, at the pace of the limit", async () => {
    const secret = await limitedKey("scoring");
    const spec: JobSpec = {questionSet, input: {kind: "template", template: "{{text}}"}, columns: ["text"]};
    const store = new MemoryResultStore();
    const started = performance.now();
    const final = await new JobRunner({
        jobId: "limited", spec, store, totalRows: rowCount, concurrency: 4,
        rows: async function* (): AsyncGenerator<RowBatch> {
            yield {start: 0, rows: texts.map((text) => [text])};
        },
        // The app's own retry setting: 4 attempts, which a rate limit used to use up.
        client: new SvcClient({baseUrl: server.url, apiKey: secret, retry: {maxAttempts: 4}})
    }).run();
    const seconds = (performance.now() - started) / 1000;
    console.log(`scoring: ${rowCount} rows at ${perMinute}/min in ${seconds.toFixed(1)} s (limit implies ${impliedSeconds(rowCount).toFixed(1)} s), ${final.retries} refusals`);
    assert.equal(final.status, "completed", final.fatalError ?? "");
    assert.equal(final.done, rowCount);
    assert.equal(final.failed, 0);
    assert.equal((await store.readResults("limited")).filter((result) => result.ok).length, rowCount);
    assertPaced("scoring", seconds, rowCount);
    assert.ok(final.retries <= rowCount, `${final.retries} refusals: the job keeps to the pace instead of knocking at every turn`);
});

test("an experiment under a rate limit: every cell done, none failed, at the pace of the limit", async () => {
    const secret = await limitedKey("experiment");
    const dataset: Dataset = {id: "d", name: "reviews", columns: ["text"], columnTypes: ["string"], rows: texts.map((text) => [text]),
        labelColumns: [], inputColumns: ["text"], createdAt: 0, updatedAt: 0};
    const experiment: ExperimentSpec = {
        format: "svc-experiment", version: 1, id: "exp", name: "reviews", dataset, sample: {kind: "all"}, checks: [], seed: 1, createdAt: 0,
        variants: [{name: "A", connection: {baseUrl: server.url},
            version: {itemId: "q", itemName: "cat", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"}, questionSet}}}]
    };
    const store = new MemoryResultStore<StoredCell, ExperimentRunSpec>();
    const started = performance.now();
    const final = await new ExperimentRunner({
        spec: experiment, dataset, store, concurrency: 4,
        clientFor: () => new SvcClient({baseUrl: server.url, apiKey: secret, retry: {maxAttempts: 4}})
    }).run();
    const seconds = (performance.now() - started) / 1000;
    console.log(`experiment: ${rowCount} cells at ${perMinute}/min in ${seconds.toFixed(1)} s (limit implies ${impliedSeconds(rowCount).toFixed(1)} s), ${final.retries} refusals`);
    assert.equal(final.status, "completed", final.fatalError ?? "");
    assert.deepEqual(final.variants, [{done: rowCount, failed: 0, total: rowCount}]);
    assert.equal((await store.readResults("exp")).filter((stored) => stored.ok).length, rowCount);
    assertPaced("experiment", seconds, rowCount);
    assert.ok(final.retries <= rowCount, `${final.retries} refusals: the run keeps to the pace instead of knocking at every turn`);
});
