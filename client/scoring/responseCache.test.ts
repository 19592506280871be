// Scoring through the response cache, against a real HTTP server answering like the API: a second job over the same
// rows sends nothing and marks its rows `cached`, with the answers and durations of the first; a row whose answer
// did not fit the questions, or that the server refused, is not kept; the score CLI's --cache and --no-cache.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {SvcClient} from "../sdk/SvcClient.ts";
import {decisionReply, requestText} from "../../test/support/decisionReply.ts";
import {json, startTestServer} from "../../test/support/startTestServer.ts";
import {JobRunner} from "./JobRunner.ts";
import {MemoryResultStore} from "./results.ts";
import type {CachedResponse, ResponseCache} from "./responseCache.ts";
import type {JobSpec, RowResult, SheetRow} from "./types.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-scoring-cache-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const spec: JobSpec = {
    questionSet: {format: "decisions", questions: [{type: "predicate", name: "positive", instructions: "Is the review positive?"}]},
    input: {kind: "template", template: "review {{id}}: {{text}}"},
    columns: ["id", "text"]
};
const rows: SheetRow[] = Array.from({length: 6}, (_, index) => [index, `text ${index}`]);

/** A ResponseCache in a Map, counting its puts. */
function memoryCache(): ResponseCache & {entries: Map<string, CachedResponse>, puts: number} {
    const entries = new Map<string, CachedResponse>();
    return {
        entries, puts: 0,
        async get(key) {
            return entries.get(key);
        },
        async put(key, value) {
            this.puts++;
            entries.set(key, value);
        }
    };
}

async function score(url: string, cache: ResponseCache, jobId: string): Promise<RowResult[]> {
    const store = new MemoryResultStore();
    const final = await new JobRunner({
        jobId, spec, client: new SvcClient({baseUrl: url, retry: false}), store, concurrency: 2,
        rows: async function* () {
            yield {start: 0, rows};
        },
        totalRows: rows.length,
        failFast: 0,
        cache: {cache, scope: {connection: url, model: null}}
    }).run();
    assert.equal(final.status, "completed");
    return store.readResults(jobId);
}

test("a second job over the same rows is answered from the cache: nothing sent, every row `cached`, the same answers and durations", async () => {
    const server = await startTestServer([decisionReply()]);
    try {
        const cache = memoryCache();
        const first = await score(server.url, cache, "first");
        assert.equal(server.requests.length, rows.length);
        assert.equal(cache.entries.size, rows.length);
        assert.ok(first.every((row) => row.ok && row.cached === undefined && row.attempts === 1));

        const second = await score(server.url, cache, "second");
        assert.equal(server.requests.length, rows.length, "nothing was sent");
        assert.ok(second.every((row) => row.cached === true && row.attempts === 0));
        assert.deepEqual(second.map((row) => row.response), first.map((row) => row.response));
        assert.deepEqual(second.map((row) => row.durationMs), first.map((row) => row.durationMs));

        const elsewhere = await score(`${server.url}/`, memoryCache(), "elsewhere");
        assert.ok(elsewhere.every((row) => row.cached === undefined), "another cache holds none of it");
    } finally {
        await server.close();
    }
});

test("only successful answers are kept: a refused row and an answer that does not fit the questions are sent again", async () => {
    const answer = decisionReply();
    let broken = true;
    const server = await startTestServer([(res, request) => {
        const text = requestText(request);
        if (broken && text.includes("review 1:")) return json(400, {error: {message: "too long", type: "invalid_request_error", code: "context_length_exceeded"}})(res, request);
        if (broken && text.includes("review 2:")) return json(200, {answers: [{type: "choice", choice: "x", probabilities: {x: 1}}]})(res, request);
        return answer(res, request);
    }]);
    try {
        const cache = memoryCache();
        const first = await score(server.url, cache, "first");
        assert.deepEqual(first.map((row) => row.ok), [true, false, false, true, true, true]);
        assert.equal(first[2].error?.code, "invalid_response");
        assert.equal(cache.puts, 4, "the two failed rows were not kept");

        broken = false;
        const second = await score(server.url, cache, "second");
        assert.deepEqual(server.requests.slice(rows.length).map((request) => /review (\d+):/.exec(requestText(request))?.[1]).sort(), ["1", "2"]);
        assert.deepEqual(second.map((row) => row.cached ?? false), [true, false, false, true, true, true]);
        assert.ok(second.every((row) => row.ok));
    } finally {
        await server.close();
    }
});

function scoreCli(args: string[]): Promise<{code: number | null, stderr: string}> {
    const child = spawn(process.execPath, ["--import", "tsx", "client/scoring/cli/score.ts", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: {...process.env, XDG_CACHE_HOME: dir}});
    let stderr = "";
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stderr}))));
}

test("score: a second run over the same sheet is answered from the default cache file; --no-cache sends every row", {timeout: 120_000}, async () => {
    const server = await startTestServer([decisionReply()]);
    try {
        const input = path.join(dir, "reviews.csv");
        await writeFile(input, "id,text\n1,great\n2,broken\n3,fine\n");
        const set = path.join(dir, "set.json");
        await writeFile(set, JSON.stringify(spec.questionSet));
        const run = (out: string, ...extra: string[]) => scoreCli([input, "--questions", set, "--out", path.join(dir, out), "--base-url", server.url, ...extra]);

        const first = await run("first.csv");
        assert.equal(first.code, 0, first.stderr);
        assert.match(first.stderr, /scored 3 rows \(3 this run, 0 with errors\) in .*; 3 sent, 0 from the cache: wrote/);
        const second = await run("second.csv");
        assert.equal(second.code, 0, second.stderr);
        assert.match(second.stderr, /scored 3 rows \(3 this run, 0 with errors\) in .*; 0 sent, 3 from the cache: wrote/);
        assert.equal(server.requests.length, 3, "the second run sent nothing");
        assert.equal(await readFile(path.join(dir, "second.csv"), "utf8"), await readFile(path.join(dir, "first.csv"), "utf8"));
        await readFile(path.join(dir, "svc-studio", "responses.sqlite"));

        const uncached = await run("uncached.csv", "--no-cache");
        assert.equal(uncached.code, 0, uncached.stderr);
        assert.equal(server.requests.length, 6, "--no-cache sent every row");
        assert.doesNotMatch(uncached.stderr, /from the cache/);

        const explicit = await run("explicit.csv", "--cache", path.join(dir, "no-such-folder", "c.sqlite"));
        assert.equal(explicit.code, 2, explicit.stderr);
        assert.match(explicit.stderr, /score: --cache .*no-such-folder.*: cannot be opened as a response cache/);
        assert.equal(server.requests.length, 6);
    } finally {
        await server.close();
    }
});
