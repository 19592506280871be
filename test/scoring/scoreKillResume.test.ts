// The scoring CLI as a user runs it, against the real local engine (tiny fixture model): SIGKILLed at random
// points of a run and resumed with --resume until it finishes. Every row must end up scored exactly once:
// present in SQLite once, never sent again once stored, and in the output in input order.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn, type ChildProcess} from "node:child_process";
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {openSqlite} from "../../base/node/sqlite.ts";
import {parseCsv} from "../support/csv.ts";
import {formatCsv} from "../../client/scoring/index.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {startServer, type RunningServer} from "../../native/startServer.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const rowCount = 120;
const questionSet = {
    format: "decisions",
    questions: [
        {type: "predicate", name: "positive", instructions: "Is the review positive?"},
        {type: "choice", name: "topic", instructions: "What is the review about?", choices: [{value: "price"}, {value: "quality"}, {value: "delivery"}]},
        {type: "score", name: "stars", instructions: "How many stars?", levels: [{label: "one"}, {label: "three"}, {label: "five"}]}
    ]
};

let dir: string;
let engine: RunningServer;
let proxy: Server;
let proxyUrl: string;
/** Every request that reached the engine: the row it scored and when it arrived. */
const arrivals: Array<{row: number, at: number}> = [];

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-score-kill-"));
    engine = await startServer({modelPath: await ensureTinyGguf(), threads: 1, gpu: "off", port: 0, parallel: 1});
    // A pass-through proxy in front of the engine that logs which row each request carries.
    proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", async () => {
            const body = Buffer.concat(chunks).toString("utf8");
            arrivals.push({row: Number(/Review (\d+):/.exec(body)?.[1]), at: Date.now()});
            try {
                const upstream = await fetch(engine.url + req.url, {method: req.method, headers: {"content-type": "application/json"}, body});
                res.writeHead(upstream.status, {"content-type": upstream.headers.get("content-type") ?? "application/json"});
                res.end(Buffer.from(await upstream.arrayBuffer()));
            } catch {
                res.destroy();
            }
        });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

after(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await engine.close();
    await rm(dir, {recursive: true, force: true});
});

type Exit = {code: number | null, signal: NodeJS.Signals | null, stderr: string};

function startScore(args: string[]): {child: ChildProcess, exited: Promise<Exit>, scoring: Promise<void>} {
    // The response cache goes under the test's folder, not the user's cache folder.
    const child = spawn(process.execPath, ["--import", "tsx", "client/scoring/cli/score.ts", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: {...process.env, XDG_CACHE_HOME: dir}});
    let stderr = "";
    let markScoring: () => void = () => undefined;
    const scoring = new Promise<void>((resolve) => markScoring = resolve);
    child.stderr!.on("data", (chunk) => {
        stderr += chunk;
        // The first progress line: the job is open and rows are going out.
        if (/rows/.test(stderr)) markScoring();
    });
    const exited = new Promise<Exit>((resolve) => child.on("exit", (code, signal) => {
        markScoring();
        setImmediate(() => resolve({code, signal, stderr}));
    }));
    return {child, exited, scoring};
}

function readDb(file: string): Map<number, string> {
    const db = openSqlite(file, {readOnly: true});
    try {
        const rows = db.prepare("SELECT row_index, result FROM results").all() as Array<{row_index: number, result: string}>;
        const byRow = new Map<number, string>();
        for (const row of rows) {
            assert.ok(!byRow.has(row.row_index), `row ${row.row_index} stored twice`);
            byRow.set(row.row_index, row.result);
        }
        return byRow;
    } finally {
        db.close();
    }
}

test("killed with SIGKILL at random points and resumed, every row is scored exactly once", {timeout: 180_000}, async (t) => {
    const input = path.join(dir, "reviews.csv");
    const out = path.join(dir, "scored.csv");
    const db = `${out}.scoring.sqlite`;
    const inputRows = Array.from({length: rowCount}, (_, index) => [String(index), `Item ${index}: "${["cheap", "sturdy", "late"][index % 3]}", would buy again ${"!".repeat(index % 4)}`]);
    await writeFile(input, formatCsv([["id", "text"], ...inputRows]));
    await writeFile(path.join(dir, "set.json"), JSON.stringify(questionSet));
    const args = (resume: boolean) => [input, "--questions", path.join(dir, "set.json"), "--out", out, "--base-url", proxyUrl,
        "--concurrency", "3", "--template", "Review {{id}}: {{text}}", ...(resume ? ["--resume"] : [])];

    const kills: Array<{delayMs: number, at: number, stored: Map<number, string>}> = [];
    let finished: Exit | undefined;
    for (let run = 0; run < 6 && finished === undefined; run++) {
        const {child, exited, scoring} = startScore(args(run > 0));
        await scoring;
        const delayMs = Math.round(50 + Math.random() * 900);
        const timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
        const exit = await exited;
        clearTimeout(timer);
        if (exit.signal === "SIGKILL") {
            const stored = readDb(db);
            kills.push({delayMs, at: Date.now(), stored});
            // Stored rows only grow, and a stored result is never rewritten.
            const previous = kills.at(-2)?.stored ?? new Map();
            for (const [row, result] of previous) assert.equal(stored.get(row), result, `row ${row} changed after a kill`);
        } else {
            assert.equal(exit.code, 0, exit.stderr);
            finished = exit;
        }
    }
    if (finished === undefined) {
        const last = await startScore(args(true)).exited;
        assert.equal(last.code, 0, last.stderr);
    }
    const progress = kills.map((kill) => kill.stored.size);
    t.diagnostic(`kills after ${kills.map((kill) => kill.delayMs).join(", ")} ms left ${progress.join(", ")} of ${rowCount} rows stored; ${arrivals.length} requests`);
    assert.ok(kills.length >= 1, "at least one run was killed");
    assert.ok(progress.some((size) => size > 0 && size < rowCount), `a kill landed mid-run (stored after each kill: ${progress.join(", ")}; delays ${kills.map((kill) => kill.delayMs).join(", ")} ms)`);

    // SQLite: every row once, all present, the file intact.
    const sqlite = openSqlite(db, {readOnly: true});
    const counts = sqlite.prepare("SELECT COUNT(*) AS n, COUNT(DISTINCT row_index) AS distinctRows, MIN(row_index) AS first, MAX(row_index) AS last, SUM(ok) AS ok FROM results").get();
    assert.deepEqual({...counts}, {n: rowCount, distinctRows: rowCount, first: 0, last: rowCount - 1, ok: rowCount});
    assert.equal(sqlite.pragma("integrity_check", {simple: true}), "ok");
    sqlite.close();

    // Never re-scored: no request for a row after a kill that found it stored.
    for (const kill of kills)
        for (const arrival of arrivals)
            assert.ok(!(arrival.at > kill.at && kill.stored.has(arrival.row)), `row ${arrival.row} was sent again after it was stored`);
    // Only the rows in flight at a kill may go out twice; everything else exactly once.
    assert.ok(arrivals.length <= rowCount + 3 * kills.length, `${arrivals.length} requests for ${rowCount} rows and ${kills.length} kills`);

    // The output: input order, original columns kept, answers filled in every row.
    const written = parseCsv(await readFile(out, "utf8"));
    assert.deepEqual(written[0], ["id", "text", "positive.probability", "topic.choice", "topic.confidence", "topic.p.price", "topic.p.quality", "topic.p.delivery",
        "stars.score", "stars.level", "stars.confidence", "stars.p.0", "stars.p.1", "stars.p.2", "error"]);
    assert.equal(written.length, rowCount + 1);
    written.slice(1).forEach((row, index) => {
        assert.deepEqual(row.slice(0, 2), inputRows[index]);
        const probability = Number(row[2]);
        assert.ok(probability >= 0 && probability <= 1, `row ${index}: ${row[2]}`);
        assert.ok(["price", "quality", "delivery"].includes(row[3]));
        assert.equal(row[14], "", `row ${index} has no error`);
    });
});
