// `svc-studio eval` as a child process: against the real server on the built-in model (a gate met: exit 0; one
// missed: exit 1; the second run resumes and sends nothing), killed mid-run and run again against a scripted server
// (no finished cell sent twice), bad input, gates that cannot be checked and outputs that cannot be written refused
// before anything is sent (exit 2, no request at the server), an errored cell failing the gates, and an unexpected
// error told apart from a missed gate (exit 70).
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdir, mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {openSqlite} from "../../../base/node/sqlite.ts";
import {spawnServer} from "../../../test/support/spawnServer.ts";
import {chatReply, promptText} from "../../../test/support/chatReply.ts";
import {json, startTestServer} from "../../../test/support/startTestServer.ts";
import {evalHere} from "../../../test/support/evalHere.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");
let dir: string;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-cli-"));
    // The default response cache goes under this folder (here and in the CLI's child processes), not the user's.
    process.env.XDG_CACHE_HOME = dir;
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

type Run = {code: number | null, stdout: string, stderr: string};

/**
 * Runs the CLI to its end; `killWhen` is polled while it runs, and kills it (SIGKILL, as a crash) once true.
 * `nodeArgs` go before the CLI's script (a module to import first).
 */
function evalCli(args: string[], killWhen?: () => boolean, nodeArgs: string[] = []): Promise<Run> {
    const child = spawn(process.execPath, [...nodeArgs, bin, "eval", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"]});
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
        const passing = await evalCli([file, "--out", report, "--csv", rowsCsv, "--fail-under", "pass_rate=0", "--fail-under", "pass:regex=1"]);
        assert.equal(passing.code, 0, passing.stderr);
        assert.match(await readFile(report, "utf8"), /^<!DOCTYPE html>[\s\S]*real[\s\S]*<\/html>\s*$/i);
        const csvLines = (await readFile(rowsCsv, "utf8")).trim().split(/\r?\n/);
        assert.equal(csvLines.length, 7, "a header and the 6 rows");
        assert.match(csvLines[0], /^\uFEFF?row,question,expected,A\./);
        assert.match(passing.stderr, /6 rows x 2 variants: 12 requests/);
        assert.match(passing.stderr, /12 cells \(12 sent, 0 from the cache, 0 with errors\)/);
        assert.match(passing.stderr, /pass:regex=1: met/);
        // Each share with its 95% Wilson interval: 6 of 6 gives 0.610–1 and 0 of 6 gives 0–0.390 (scipy binomtest(6, 6)
        // and binomtest(0, 6).proportion_ci(method="wilson")).
        assert.match(passing.stdout, /^regex\s+1\.000 \(0\.610–1\.000\)\s+1\.000 \(0\.610–1\.000\)$/m);
        assert.match(passing.stdout, /^equals_expected\s+0\.000 \(0\.000–0\.390\)\s+0\.000 \(0\.000–0\.390\)$/m);
        assert.match(passing.stderr, /no errored cells \(implied by --fail-under unless an error_rate gate is given\): met/);

        const failing = await evalHere([file, "--fail-under", "B:pass:equals_expected=0.5"]);
        assert.equal(failing.code, 1, failing.stderr);
        assert.match(failing.stderr, /12 cells \(0 sent, 0 from the cache, 12 stored by an earlier run/, "the second run resumed: nothing was sent again");
        assert.match(failing.stderr, /beside|already stored/);
        assert.match(failing.stderr, /B:pass:equals_expected=0\.5: missed, at least 0\.5 wanted \(B .*equals_expected.* 0\.000\)/);
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

/** An experiment of a question-set variant A (urgent: yes/no, mood: a choice) and a chat variant B with a regex and a grader check. */
async function writeMixedExperiment(name: string, baseUrl: string): Promise<string> {
    await writeFile(path.join(dir, `${name}.csv`), "text,urgent,mood\nlate again,yes,sad\nthanks a lot,no,happy\n");
    const file = path.join(dir, `${name}.svc-experiment.json`);
    await writeFile(file, JSON.stringify({
        format: "svc-experiment", version: 1, id: name, name, seed: 1,
        dataset: {file: `${name}.csv`, labelColumns: ["urgent", "mood"]},
        variants: [
            {name: "A", connection: {baseUrl}, version: {itemId: "t", itemName: "t", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"},
                questionSet: {format: "decisions", questions: [{type: "predicate", name: "urgent", instructions: "Urgent?"}, {type: "choice", name: "mood", instructions: "Mood?", choices: [{value: "happy"}, {value: "sad"}]}]}}}},
            {name: "B", connection: {baseUrl}, params: {max_tokens: 6}, version: {itemId: "c", itemName: "c", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{text}}"}]}}}}
        ],
        checks: [{kind: "regex", pattern: "^"}, {kind: "grader", name: "grounded", question: "Grounded?", template: "Reply: {{reply}}"}]
    }));
    return file;
}

test("a gate that cannot be checked is refused with its reason before anything is sent, exit code 2", async () => {
    const server = await startTestServer([chatReply()]);
    try {
        const file = await writeMixedExperiment("gates", server.url);
        const refusals: Array<[string, RegExp]> = [
            ["check:grounded=0.7", /--fail-under check:grounded=0\.7: check:grounded could mean two numbers: write pass:grounded \(the share of rows passing it, errored rows counted as failures\) or score:grounded \(its mean P\(yes\), grader checks only\)/],
            ["A:pass_rate=0.9", /--fail-under A:pass_rate=0\.9: A is a question-set \(decision\) variant, and pass_rate is measured on chat variants/],
            ["auc@mood=0.7", /--fail-under auc@mood=0\.7: mood is a choice question in A, and auc exists for yes\/no questions only/],
            ["mae=0.5", /--fail-under mae=0\.5: no variant has it: A has no score question with a label column, so no mae; B is a chat variant/],
            ["accuracy=1.5", /--fail-under accuracy=1\.5: 1\.5 is outside accuracy's range \(0 to 1\), so the gate could never be met/],
            ["Z:accuracy=0.8", /--fail-under Z:accuracy=0\.8: no variant "Z" \(variants: A, B\)/],
            ["score:regex=0.5", /--fail-under score:regex=0\.5: score:regex is a grader check's mean P\(yes\), and regex is not a grader/]
        ];
        for (const [gate, reason] of refusals) {
            const run = await evalHere([file, "--fail-under", gate]);
            assert.equal(run.code, 2, `${gate}: ${run.stderr}`);
            assert.match(run.stderr, reason);
        }
        // Every refusal is said at once, the gates' with the input's.
        const all = await evalHere([file, ...refusals.flatMap(([gate]) => ["--fail-under", gate])]);
        assert.equal(all.code, 2);
        assert.equal(all.stderr.split("\n").filter((line) => line.startsWith("eval: --fail-under ")).length, refusals.length);
        assert.equal(server.requests.length, 0, "nothing was sent");
    } finally {
        await server.close();
    }
});

test("an output that cannot be written is refused before anything is sent, exit code 2 and no stack", async () => {
    const server = await startTestServer([chatReply()]);
    try {
        const file = await writeExperiment("outputs", server.url, 3);
        await writeFile(path.join(dir, "a-file"), "not a folder\n");
        await mkdir(path.join(dir, "rows-folder.csv"), {recursive: true});
        const run = await evalCli([file, "--out", path.join(dir, "a-file", "report.html"), "--csv", path.join(dir, "rows-folder.csv"), "--db", path.join(dir, "no-such-folder", "results.sqlite"), "--fail-under", "pass_rate=0"]);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, /eval: --out: cannot write .*report\.html: .*a-file is a file, not a folder/);
        assert.match(run.stderr, /eval: --csv: .*rows-folder\.csv is a folder/);
        assert.match(run.stderr, /eval: --db: cannot write .*results\.sqlite: no folder .*no-such-folder/);
        assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
        assert.equal(server.requests.length, 0, "nothing was sent");
        // A folder --out would create is fine: the report is written there after the run.
        const report = path.join(dir, "new-folder", "deeper", "report.html");
        const ok = await evalHere([file, "--out", report, "--db", path.join(dir, "outputs-ok.sqlite")]);
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(await readFile(report, "utf8"), /<\/html>/);
    } finally {
        await server.close();
    }
});

test("a file that is missing or not JSON is named, with the line and column where the JSON breaks; nothing is sent", async () => {
    const missing = path.join(dir, "missing.svc-experiment.json");
    const run = await evalCli([missing]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.trim(), `eval: no such file: ${missing}`);

    const broken = path.join(dir, "broken.svc-experiment.json");
    await writeFile(broken, '{\n  "format": "svc-experiment",\n  "version": 1\n  "id": "x"\n}\n');
    const comma = await evalHere([broken]);
    assert.equal(comma.code, 2);
    assert.equal(comma.stderr.trim(), `eval: ${broken}:4:3: not JSON (Expected ',' or '}' after property value)`);
    // JSON.parse gives no position for an unexpected token: it is found all the same.
    await writeFile(broken, '{\n  "format": "svc-experiment",\n  "version": }\n');
    const token = await evalHere([broken]);
    assert.equal(token.code, 2);
    assert.equal(token.stderr.trim(), `eval: ${broken}:3:14: not JSON (Unexpected token '}')`);
    await writeFile(broken, '{"format": "svc-experiment", "version": 2}');
    const field = await evalHere([broken]);
    assert.equal(field.code, 2);
    assert.match(field.stderr, new RegExp(`^eval: ${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `));
});

test("an errored cell fails the gates unless an error_rate gate allows it; --retry-errors says how many cells it sends again", async () => {
    // Row 1's requests are refused (400): stored as errors, the run goes on.
    const answer = chatReply();
    const server = await startTestServer([(res, request) => /item 1\b/.test(promptText(request))
        ? json(400, {error: {message: "too long", type: "invalid_request_error", code: "context_length_exceeded"}})(res, request)
        : answer(res, request)]);
    try {
        const file = await writeExperiment("errored", server.url, 4, {checks: [{kind: "regex", pattern: "^"}]});
        const first = await evalHere([file, "--fail-under", "pass_rate=0"]);
        assert.equal(first.code, 1, first.stderr);
        assert.match(first.stderr, /eval: pass_rate=0 applies to A, B/);
        // Two chat variants are compared: before sending, what 4 rows can detect at the assumed discordance.
        assert.match(first.stderr, /eval: power: on 4 rows, no difference in the primary metric has an 80% chance of a clear verdict \(α = 0\.05, discordance 0\.200 assumed\)/);
        assert.match(first.stderr, /pass_rate=0: met/);
        assert.match(first.stderr, /no errored cells \(implied by --fail-under unless an error_rate gate is given\): missed, at most 0 wanted \(A error rate 0\.250: 1 of 4 cells errored, B error rate 0\.250: 1 of 4 cells errored\); allow some with --fail-under error_rate=<max>/);
        assert.equal(server.requests.length, 8);

        const allowed = await evalHere([file, "--fail-under", "pass_rate=0", "--fail-under", "error_rate=0.25"]);
        assert.equal(allowed.code, 0, allowed.stderr);
        assert.match(allowed.stderr, /the 2 stored cells with an error are kept; --retry-errors sends them again/);
        assert.match(allowed.stderr, /error_rate=0\.25: met/);
        assert.doesNotMatch(allowed.stderr, /no errored cells/);

        const strict = await evalHere([file, "--fail-under", "A:error_rate=0.25", "--retry-errors"]);
        assert.match(strict.stderr, /--retry-errors: the 2 stored cells with an error will be sent again/);
        assert.equal(server.requests.length, 10, "the 2 errored cells, and only they, were sent again");
        // A's errors are allowed by its gate; B, which no error_rate gate covers, may have none.
        assert.equal(strict.code, 1, strict.stderr);
        assert.match(strict.stderr, /A:error_rate=0\.25: met/);
        assert.match(strict.stderr, /no errored cells .*: missed, at most 0 wanted \(B error rate 0\.250: 1 of 4 cells errored\)/);
    } finally {
        await server.close();
    }
});

test("an unexpected error is told apart from a missed gate: exit code 70 with its stack", async () => {
    // A module run first makes reading the experiment file throw an error no input check knows.
    const fault = path.join(dir, "fault.mjs");
    await writeFile(fault, `import fs from "node:fs";
import {syncBuiltinESMExports} from "node:module";
const readFile = fs.promises.readFile;
fs.promises.readFile = async (file, ...rest) => {
    if (String(file).endsWith(".svc-experiment.json")) throw new Error("simulated fault");
    return readFile(file, ...rest);
};
syncBuiltinESMExports();
`);
    const file = await writeExperiment("fault", "http://127.0.0.1:9", 2);
    const run = await evalCli([file], undefined, ["--import", pathToFileURL(fault).href]);
    assert.equal(run.code, 70, run.stderr);
    assert.match(run.stderr, /^eval: internal error: simulated fault\nError: simulated fault\n\s+at /);
    const help = await evalHere(["--help"]);
    assert.match(help.stdout, /70 internal error/);
});
