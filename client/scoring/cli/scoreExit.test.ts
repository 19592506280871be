// The score CLI's refusals and exit codes, as a child process against a local server that counts what reaches it:
// outputs that could not be written and a missing file are refused before anything is sent (exit 2, one line), and
// an unexpected error is told apart from bad input (exit 70, with its stack).
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {decisionReply} from "../../../test/support/decisionReply.ts";
import {startTestServer, type TestServer} from "../../../test/support/startTestServer.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
let dir: string, server: TestServer, input: string, questions: string;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-score-exit-"));
    server = await startTestServer([decisionReply()]);
    input = path.join(dir, "in.csv");
    await writeFile(input, "text\nfine\nbroken\n");
    questions = path.join(dir, "set.json");
    await writeFile(questions, JSON.stringify({format: "decisions", questions: [{type: "predicate", name: "happy", instructions: "Happy?"}]}));
    await writeFile(path.join(dir, "a-file"), "not a folder\n");
});
after(async () => {
    await server.close();
    await rm(dir, {recursive: true, force: true});
});

function score(args: string[], nodeArgs: string[] = []): Promise<{code: number | null, stderr: string}> {
    const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "client/scoring/cli/score.ts", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"]});
    let stderr = "";
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stderr}))));
}

test("an --out or --db that could not be written is refused before anything is sent: exit 2, one line, no stack", async () => {
    const out = path.join(dir, "a-file", "out.csv");
    const run = await score([input, "--questions", questions, "--out", out, "--db", path.join(dir, "jobs.sqlite"), "--base-url", server.url]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^score: --out .*out\.csv: cannot write in .*a-file: a file on its path is not a folder\n$/m);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
    const db = await score([input, "--questions", questions, "--out", path.join(dir, "out.csv"), "--db", path.join(dir, "no-such-folder", "jobs.sqlite"), "--base-url", server.url]);
    assert.equal(db.code, 2, db.stderr);
    assert.match(db.stderr, /score: --db .*jobs\.sqlite: cannot write in .*no-such-folder: no such folder/);
    assert.equal(server.requests.length, 0, "nothing was sent");
});

test("a missing file is named, not a bare ENOENT: exit 2", async () => {
    const missing = path.join(dir, "missing.json");
    const run = await score([input, "--questions", missing, "--out", path.join(dir, "out.csv"), "--base-url", server.url]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr.trim(), `score: no such file: ${missing}`);
    assert.equal(server.requests.length, 0);
});

test("an unexpected error exits 70 with its stack, apart from bad input (2) and a failed job (3)", async () => {
    // A module run first makes reading the question set throw an error no input check knows.
    const fault = path.join(dir, "fault.mjs");
    await writeFile(fault, `import fs from "node:fs";
import {syncBuiltinESMExports} from "node:module";
const readFile = fs.promises.readFile;
fs.promises.readFile = async (file, ...rest) => {
    if (String(file).endsWith("set.json")) throw new Error("simulated fault");
    return readFile(file, ...rest);
};
syncBuiltinESMExports();
`);
    const run = await score([input, "--questions", questions, "--out", path.join(dir, "out.csv"), "--base-url", server.url], ["--import", pathToFileURL(fault).href]);
    assert.equal(run.code, 70, run.stderr);
    assert.match(run.stderr, /^score: internal error: simulated fault\nError: simulated fault\n\s+at /);
    assert.equal(server.requests.length, 0);
});
