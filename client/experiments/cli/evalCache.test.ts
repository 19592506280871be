// `svc-studio eval` with the response cache: against the real server on the built-in model behind a recording proxy
// (which counts the requests that reached the server), an edited variant's cells are the only ones sent again and the
// unchanged variant's summary is the same; --no-cache sends every cell; against a scripted server, a failed answer is
// not kept, so it is sent again.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {openSqlite} from "../../../base/node/sqlite.ts";
import {spawnServer} from "../../../test/support/spawnServer.ts";
import {startRecordingProxy} from "../../../test/support/recordingProxy.ts";
import {chatReply, promptText} from "../../../test/support/chatReply.ts";
import {json, startTestServer} from "../../../test/support/startTestServer.ts";
import type {StoredCell} from "../ExperimentRunner.ts";
import {readExperimentFile} from "../node/experimentFiles.ts";
import {summarizeExperiment} from "../summary.ts";
import type {CellResult} from "../types.ts";
import {evalHere} from "../../../test/support/evalHere.ts";

let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-cache-"));
    // Runs that name no --cache would use the user's cache folder: this one instead.
    process.env.XDG_CACHE_HOME = dir;
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

/** Two chat variants over `rows` questions; each variant's prompt is its instruction followed by the question. */
async function writeExperiment(name: string, baseUrl: string, rows: number, instructions: [string, string]): Promise<string> {
    const csv = ["question,expected", ...Array.from({length: rows}, (_, index) => `Tell me about item ${index}.,item`)].join("\n");
    await writeFile(path.join(dir, `${name}.csv`), `${csv}\n`);
    const variant = (variantName: string, instruction: string) => ({
        name: variantName,
        connection: {baseUrl},
        params: {temperature: 0, max_tokens: 6},
        version: {prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: `${instruction} {{question}}`}]}}}
    });
    const file = path.join(dir, `${name}.svc-experiment.json`);
    await writeFile(file, JSON.stringify({
        format: "svc-experiment", version: 1, id: name, name, seed: 1, concurrency: 2,
        dataset: {file: `${name}.csv`, labelColumns: ["expected"]},
        variants: [variant("A", instructions[0]), variant("B", instructions[1])],
        checks: [{kind: "regex", pattern: "^"}, {kind: "contains", column: "expected"}]
    }));
    return file;
}

/** Every cell a results database holds, in (row, variant) order, the latest job's only when `jobs` holds several. */
function storedCells(db: string): CellResult[] {
    const database = openSqlite(db, {readOnly: true});
    try {
        const job = database.prepare("SELECT job_id FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT 1").pluck().get() as string;
        return (database.prepare("SELECT result FROM results WHERE job_id = ? ORDER BY row_index").pluck().all(job) as string[]).map((text) => (JSON.parse(text) as StoredCell).cell);
    } finally {
        database.close();
    }
}

async function summary(file: string, db: string) {
    const {spec, dataset} = await readExperimentFile(file);
    return summarizeExperiment(spec, dataset, storedCells(db));
}

test("an edited variant's cells are sent again and no other: the unchanged variant is answered from the cache with the same summary; --no-cache sends every cell", {timeout: 180_000}, async () => {
    const rows = 8;
    const server = await spawnServer(["--models-dir", path.join(dir, "models"), "--data-dir", path.join(dir, "data"), "--threads", "1", "--gpu", "off"]);
    const proxy = await startRecordingProxy(server.url);
    try {
        const cache = path.join(dir, "responses.sqlite");
        const file = await writeExperiment("edited", proxy.url, rows, ["Answer briefly:", "Answer shortly:"]);
        const first = await evalHere([file, "--cache", cache, "--db", path.join(dir, "first.sqlite")]);
        assert.equal(first.code, 0, first.stderr);
        assert.equal(proxy.requests.length, 2 * rows, "the first run sends every cell");
        assert.match(first.stderr, /16 cells \(16 sent, 0 from the cache, 0 with errors\)/);
        const before = await summary(file, path.join(dir, "first.sqlite"));

        // One word of B's prompt changes; A's requests are exactly the same.
        await writeExperiment("edited", proxy.url, rows, ["Answer briefly:", "Answer concisely:"]);
        const second = await evalHere([file, "--cache", cache, "--db", path.join(dir, "second.sqlite")]);
        assert.equal(second.code, 0, second.stderr);
        const resent = proxy.requests.slice(2 * rows);
        assert.equal(resent.length, rows, "the second run sends B's cells only");
        for (const request of resent) assert.match(JSON.stringify(request.body), /Answer concisely:/);
        assert.match(second.stderr, /16 cells \(8 sent, 8 from the cache, 0 with errors\)/);
        const cells = storedCells(path.join(dir, "second.sqlite"));
        assert.deepEqual(cells.filter((cell) => cell.variant === 0).map((cell) => [cell.cached, cell.attempts]), Array.from({length: rows}, () => [true, 0]));
        assert.deepEqual(cells.filter((cell) => cell.variant === 1).map((cell) => cell.cached), Array.from({length: rows}, () => undefined));
        const after = await summary(file, path.join(dir, "second.sqlite"));
        assert.deepEqual(after.variants[0], before.variants[0], "A's numbers are the same, latencies included");

        const uncached = await evalHere([file, "--no-cache", "--db", path.join(dir, "uncached.sqlite")]);
        assert.equal(uncached.code, 0, uncached.stderr);
        assert.equal(proxy.requests.length, 2 * rows + rows + 2 * rows, "--no-cache sends all 2N cells");
        assert.match(uncached.stderr, /16 cells \(16 sent, 0 from the cache, 0 with errors\)/);
        const replies = (db: string) => storedCells(db).filter((cell) => cell.variant === 0).map((cell) => cell.reply);
        assert.deepEqual(replies(path.join(dir, "uncached.sqlite")), replies(path.join(dir, "second.sqlite")), "the cache answered what the server answers");
    } finally {
        await proxy.close();
        await server.close();
    }
});

test("a failed answer is not kept: the cell is sent again by the next run, while every answered cell comes from the cache", async () => {
    // Row 1's requests are refused (400) while `refuse` holds.
    let refuse = true;
    const answer = chatReply();
    const server = await startTestServer([(res, request) => refuse && /item 1\b/.test(promptText(request))
        ? json(400, {error: {message: "too long", type: "invalid_request_error", code: "context_length_exceeded"}})(res, request)
        : answer(res, request)]);
    try {
        const file = await writeExperiment("failed", server.url, 4, ["Say:", "Tell:"]);
        const first = await evalHere([file, "--db", path.join(dir, "failed-1.sqlite")]);
        assert.equal(first.code, 0, first.stderr);
        assert.match(first.stderr, /8 cells \(8 sent, 0 from the cache, 2 with errors\)/);
        assert.equal(server.requests.length, 8);

        refuse = false;
        const second = await evalHere([file, "--db", path.join(dir, "failed-2.sqlite")]);
        assert.equal(second.code, 0, second.stderr);
        assert.equal(server.requests.length, 10, "only row 1's two cells reached the server again");
        assert.deepEqual(server.requests.slice(8).map((request) => /item 1\b/.test(promptText(request))), [true, true]);
        assert.match(second.stderr, /8 cells \(2 sent, 6 from the cache, 0 with errors\)/);
    } finally {
        await server.close();
    }
});

test("--cache and --no-cache exclude each other, and a --cache file that cannot be opened is refused before anything is sent", async () => {
    const server = await startTestServer([chatReply()]);
    try {
        const file = await writeExperiment("flags", server.url, 2, ["Say:", "Tell:"]);
        const both = await evalHere([file, "--cache", path.join(dir, "c.sqlite"), "--no-cache"]);
        assert.equal(both.code, 2);
        assert.match(both.stderr, /--cache and --no-cache exclude each other/);
        const missing = await evalHere([file, "--cache", path.join(dir, "no-such-folder", "c.sqlite"), "--db", path.join(dir, "flags.sqlite")]);
        assert.equal(missing.code, 2, missing.stderr);
        assert.match(missing.stderr, /eval: --cache: .*no-such-folder.*cannot be opened as a response cache/);
        assert.equal(server.requests.length, 0);
    } finally {
        await server.close();
    }
});
