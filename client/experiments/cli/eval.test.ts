// `svc-studio eval` as a child process: against the real server on the built-in model (a threshold met: exit 0; one
// missed: exit 1; the second run resumes and sends nothing), killed mid-run and run again against a scripted server
// (no finished cell sent twice), and bad input refused before anything is sent (exit 2).
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {openSqlite} from "../../../base/node/sqlite.ts";
import {spawnServer} from "../../../test/support/spawnServer.ts";
import {chatReply, promptText} from "../../../test/support/chatReply.ts";
import {startTestServer} from "../../../test/support/startTestServer.ts";
import {runEval} from "./eval.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");
let dir: string;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-cli-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

type Run = {code: number | null, stdout: string, stderr: string};

/** runEval in this process (no start-up cost), with what it prints captured. */
async function evalHere(args: string[]): Promise<Run> {
    let stdout = "", stderr = "";
    const write = process.stderr.write.bind(process.stderr);
    const log = console.log;
    process.stderr.write = ((chunk: string | Uint8Array) => {
        stderr += String(chunk);
        return true;
    }) as typeof process.stderr.write;
    console.log = (...items: unknown[]) => stdout += `${items.join(" ")}\n`;
    try {
        return {code: await runEval(args), stdout, stderr};
    } finally {
        process.stderr.write = write;
        console.log = log;
    }
}

/** Runs the CLI to its end; `killWhen` is polled while it runs, and kills it (SIGKILL, as a crash) once true. */
function evalCli(args: string[], killWhen?: () => boolean): Promise<Run> {
    const child = spawn(process.execPath, [bin, "eval", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"]});
    let stdout = "", stderr = "";
    child.stdout.on("data", (chunk) => stdout += chunk);
    child.stderr.on("data", (chunk) => stderr += chunk);
    const poll = killWhen === undefined ? undefined : setInterval(() => {
        if (killWhen()) child.kill("SIGKILL");
    }, 5);
    return new Promise((resolve) => child.on("exit", (code) => {
        clearInterval(poll);
        setImmediate(() => resolve({code, stdout, stderr}));
    }));
}

/** A chat experiment of two variants over `rows` questions, with a check that always passes and one that never does. */
async function writeExperiment(name: string, baseUrl: string, rows: number, extra: Record<string, unknown> = {}): Promise<string> {
    const csv = ["question,expected", ...Array.from({length: rows}, (_, index) => `Tell me about item ${index}.,never-${index}`)].join("\n");
    await writeFile(path.join(dir, `${name}.csv`), `${csv}\n`);
    const variant = (variantName: string, endpoint: "chat" | "responses") => ({
        name: variantName,
        connection: {baseUrl},
        params: {temperature: 0, ...(endpoint === "chat" ? {max_tokens: 6} : {max_output_tokens: 6})},
        version: {prompt: {kind: "chat", endpoint, body: endpoint === "chat" ? {messages: [{role: "user", content: "{{question}}"}]} : {input: "{{question}}"}}}
    });
    const file = path.join(dir, `${name}.svc-experiment.json`);
    await writeFile(file, JSON.stringify({
        format: "svc-experiment", version: 1, id: name, name, seed: 1, concurrency: 2,
        dataset: {file: `${name}.csv`, labelColumns: ["expected"]},
        variants: [variant("A", "chat"), variant("B", "responses")],
        checks: [{kind: "regex", pattern: "^"}, {kind: "equals", column: "expected"}],
        ...extra
    }));
    return file;
}

test("against the real server on the built-in model: a threshold met exits 0, one missed exits 1, and a run again resumes", {timeout: 120_000}, async () => {
    const server = await spawnServer(["--models-dir", path.join(dir, "models"), "--data-dir", path.join(dir, "data"), "--threads", "1", "--gpu", "off"]);
    try {
        const file = await writeExperiment("real", server.url, 6);
        const report = path.join(dir, "report.html"), rowsCsv = path.join(dir, "rows.csv");
        const passing = await evalCli([file, "--out", report, "--csv", rowsCsv, "--fail-under", "pass_rate=0", "--fail-under", "check:regex=1"]);
        assert.equal(passing.code, 0, passing.stderr);
        assert.match(await readFile(report, "utf8"), /^<!DOCTYPE html>[\s\S]*real[\s\S]*<\/html>\s*$/i);
        const csvLines = (await readFile(rowsCsv, "utf8")).trim().split(/\r?\n/);
        assert.equal(csvLines.length, 7, "a header and the 6 rows");
        assert.match(csvLines[0], /^\uFEFF?row,question,expected,A\./);
        assert.match(passing.stderr, /6 rows x 2 variants: 12 requests/);
        assert.match(passing.stderr, /12 cells \(12 this run, 0 with errors\)/);
        assert.match(passing.stderr, /check:regex=1: met/);
        assert.match(passing.stdout, /^regex\s+1\.000\s+1\.000$/m);
        assert.match(passing.stdout, /^equals_expected\s+0\.000\s+0\.000$/m);

        const failing = await evalHere([file, "--fail-under", "B:check:equals_expected=0.5"]);
        assert.equal(failing.code, 1, failing.stderr);
        assert.match(failing.stderr, /12 cells \(0 this run/, "the second run resumed: nothing was sent again");
        assert.match(failing.stderr, /beside|already stored/);
        assert.match(failing.stderr, /B:check:equals_expected=0\.5: missed, at least 0\.5 wanted \(B equals_expected 0\.000\)/);
    } finally {
        await server.close();
    }
});

test("killed mid-run and run again: every cell is stored once, and none stored before the kill is sent again", async () => {
    const server = await startTestServer([chatReply({delayMs: 30})]);
    try {
        const file = await writeExperiment("killed", server.url, 20, {checks: []});
        const db = path.join(dir, "killed.sqlite");
        const storedCount = () => {
            const database = openSqlite(db);
            try {
                return new Set(database.prepare("SELECT row_index FROM results").pluck().all() as number[]);
            } finally {
                database.close();
            }
        };
        // Killed once 12 requests reached the server: some cells are stored, others in flight, the rest unsent.
        const first = await evalCli([file, "--db", db], () => server.requests.length >= 12);
        assert.equal(first.code, null, `killed by a signal: ${first.stderr}`);
        const stored = storedCount();
        assert.ok(stored.size > 0 && stored.size < 40, `${stored.size} cells stored before the kill`);
        const before = server.requests.length;
        const second = await evalHere([file, "--db", db]);
        assert.equal(second.code, 0, second.stderr);
        const cellOf = (index: number) => {
            const request = server.requests[index];
            const row = Number(/item (\d+)/.exec(promptText(request))?.[1]);
            return row * 2 + (request.url.endsWith("/responses") ? 1 : 0);
        };
        const resent = Array.from({length: server.requests.length - before}, (_, index) => cellOf(before + index));
        assert.deepEqual(resent.filter((cell) => stored.has(cell)), [], "no cell stored before the kill was sent again");
        assert.equal(resent.length, 40 - stored.size);
        assert.equal(storedCount().size, 40);
    } finally {
        await server.close();
    }
});

test("bad input is refused before anything is sent, one line per problem, exit code 2", async () => {
    const server = await startTestServer([chatReply()]);
    try {
        const file = await writeExperiment("bad", server.url, 3, {
            checks: [{kind: "equals", column: "answer"}, {kind: "grader", name: "judge", question: "Good?", template: "Q: {{question}}"}]
        });
        const run = await evalHere([file]);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /checks\[0\]\.column: no column named "answer"/);
        assert.match(run.stderr, /checks\[1\]\.template: a grader's template must hold \{\{reply\}\}/);
        assert.equal(server.requests.length, 0);
        const usage = await evalHere([file, "--fail-under", "accuracy"]);
        assert.equal(usage.code, 2);
        assert.match(usage.stderr, /--fail-under accuracy: write metric=value/);
    } finally {
        await server.close();
    }
});
