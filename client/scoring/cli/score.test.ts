// The score CLI as a child process against a local HTTP server that answers like the API: XLSX in (sheet
// picked by name) and XLSX out, a refusal to overwrite a job without --resume, and usage errors.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import ExcelJS from "exceljs";
import {openSpreadsheetFile} from "../node/spreadsheetFiles.ts";
import {openTable} from "../table.ts";
import type {SheetRow} from "../types.ts";
import {decisionReply, requestText} from "../../../test/support/decisionReply.ts";
import {startTestServer, type TestServer} from "../../../test/support/startTestServer.ts";
import {formatProgress} from "./scoreArgs.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
let dir: string;
let server: TestServer;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-score-cli-"));
    server = await startTestServer([decisionReply()]);
});
after(async () => {
    await server.close();
    await rm(dir, {recursive: true, force: true});
});

function score(args: string[]): Promise<{code: number | null, stderr: string}> {
    const child = spawn(process.execPath, ["--import", "tsx", "client/scoring/cli/score.ts", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: {...process.env, TEST_KEY: "ck_test", XDG_CACHE_HOME: dir}});
    let stderr = "";
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stderr}))));
}

test("XLSX in, sheet chosen by name, whole rows as systemone state, XLSX out with the answer columns", async () => {
    const input = path.join(dir, "in.xlsx");
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Notes").addRows([["ignore me"]]);
    workbook.addWorksheet("Reviews").addRows([["name", "stars", "text"], ["Zoë", 5, "très bien 😀"], ["Bo", 1, "broken, \"sadly\""], ["Al", 3, null]]);
    await workbook.xlsx.writeFile(input);
    const set = path.join(dir, "set.json");
    await writeFile(set, JSON.stringify({format: "systemone", questions: {happy: {type: "noul", instructions: "Happy?"}, tone: {type: "choice", criteria: {warm: null, cold: "unfriendly"}}}}));
    const out = path.join(dir, "out.xlsx");
    const before = server.requests.length;
    const run = await score([input, "--questions", set, "--out", out, "--base-url", server.url, "--sheet", "Reviews", "--api-key-env", "TEST_KEY", "--concurrency", "2"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /scored 3 rows/);
    const sent = server.requests.slice(before);
    assert.equal(sent.length, 3);
    assert.equal(sent[0].headers.authorization, "Bearer ck_test");
    assert.deepEqual(sent.map((request) => JSON.parse(request.body).state).sort((a, b) => a.name.localeCompare(b.name)), [
        {name: "Al", stars: 3, text: null}, {name: "Bo", stars: 1, text: "broken, \"sadly\""}, {name: "Zoë", stars: 5, text: "très bien 😀"}
    ]);

    const table = await openTable(openSpreadsheetFile(out));
    assert.deepEqual(table.columns, ["name", "stars", "text", "happy.probability", "tone.choice", "tone.confidence", "tone.p.warm", "tone.p.cold", "error"]);
    const rows: SheetRow[] = [];
    for await (const batch of table.batches()) rows.push(...batch.rows);
    assert.deepEqual(rows.map((row) => row.slice(0, 3)), [["Zoë", 5, "très bien 😀"], ["Bo", 1, "broken, \"sadly\""], ["Al", 3, null]]);
    for (const row of rows) {
        assert.equal(typeof row[3], "number");
        assert.ok(row[4] === "warm" || row[4] === "cold");
        assert.ok(Math.abs((row[6] as number) + (row[7] as number) - 1) < 1e-9);
        assert.equal(row[8], null);
    }
    // Same row, same text, same answer: the whole-row JSON is stable.
    assert.equal(new Set(sent.map(requestText)).size, 3);

    // Run again without --resume: refused in one line, nothing sent; with --resume: nothing left to score.
    const again = await score([input, "--questions", set, "--out", out, "--base-url", server.url, "--sheet", "Reviews"]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already holds 3 results of this job: pass --resume/);
    const resumed = await score([input, "--questions", set, "--out", out, "--base-url", server.url, "--sheet", "Reviews", "--resume"]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /scored 3 rows \(0 this run/);
    assert.equal(server.requests.length, before + 3);
});

test("mistakes are one line and exit code 2: a bad question set, an unknown template column, a missing option", async () => {
    const input = path.join(dir, "small.csv");
    await writeFile(input, "a,b\n1,2\n");
    const badSet = path.join(dir, "bad.json");
    await writeFile(badSet, JSON.stringify({format: "decisions", questions: [{type: "score", instructions: "?", levels: [{label: "only one"}]}]}));
    const goodSet = path.join(dir, "good.json");
    await writeFile(goodSet, JSON.stringify({format: "decisions", questions: [{type: "predicate", instructions: "?"}]}));
    const out = path.join(dir, "small-out.csv");
    const cases: Array<[string[], RegExp]> = [
        [[input, "--questions", badSet, "--out", out], /question set: questions\[0\]\.levels: must hold at least two levels/],
        [[input, "--questions", goodSet, "--out", out, "--template", "{{c}}"], /no column named "c"/],
        [[input, "--out", out], /--questions <set.json> is required/]
    ];
    for (const [args, message] of cases) {
        const run = await score([...args, "--base-url", server.url]);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
    }
});

test("progress line: bar, counts, rate, ETA, errors and retries", () => {
    const line = formatProgress({
        jobId: "j", status: "running", totalRows: 1000, done: 520, succeeded: 518, failed: 2, scoredThisRun: 520, alreadyDone: 0,
        inFlight: 4, retries: 3, rowsPerSecond: 12.34, etaSeconds: 39, rateLimited: false, elapsedMs: 42_000, lastError: null, fatalError: null
    }, 10);
    assert.equal(line, "[#####.....] 52% 520/1000 rows | 12.3 rows/s | ETA 39 s | 2 errors | 3 retries");
    assert.match(formatProgress({
        jobId: "j", status: "running", totalRows: 100, done: 10, succeeded: 10, failed: 0, scoredThisRun: 10, alreadyDone: 0,
        inFlight: 4, retries: 8, rowsPerSecond: 1 / 6, etaSeconds: 540, rateLimited: true, elapsedMs: 20_000, lastError: null, fatalError: null
    }), /ETA 9 min \(rate-limited\)/);
    assert.equal(formatProgress({
        jobId: "j", status: "paused", totalRows: null, done: 7, succeeded: 7, failed: 0, scoredThisRun: 7, alreadyDone: 0,
        inFlight: 0, retries: 0, rowsPerSecond: null, etaSeconds: null, rateLimited: false, elapsedMs: 1, lastError: null, fatalError: null
    }), "7 rows | paused");
});
