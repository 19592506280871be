// The `serve` command as a user runs it: a child process that prints where it listens, refuses bad model
// files with one clear line and a non-zero exit, and shuts down cleanly on SIGTERM.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn, type ChildProcess} from "node:child_process";
import {chmod, mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
let workDir: string;
let modelPath: string;

before(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "svc-cli-"));
    modelPath = await ensureTinyGguf();
});
after(async () => {
    await rm(workDir, {recursive: true, force: true});
});

function startCli(args: string[]): ChildProcess {
    return spawn(process.execPath, ["--import", "tsx", "native/cli/main.ts", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"]});
}

type Exit = {code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, elapsedMs: number};

/** Waits for the child to exit, killing it (by its own pid) if it outlives `timeoutMs`. */
function waitForExit(child: ChildProcess, timeoutMs: number): Promise<Exit> {
    const startedAt = performance.now();
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => void (stdout += chunk));
    child.stderr!.on("data", (chunk) => void (stderr += chunk));
    return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.on("exit", (code, signal) => {
            clearTimeout(timer);
            // Let the pipes drain what was written just before the exit.
            setImmediate(() => resolve({code, signal, stdout, stderr, elapsedMs: performance.now() - startedAt}));
        });
    });
}

const runCli = (args: string[], timeoutMs = 60_000) => waitForExit(startCli(args), timeoutMs);
const serveArgs = (model: string) => ["serve", "--model", model, "--port", "0", "--threads", "1", "--gpu", "off"];

/** The lines a person sees on stderr, without node-llama-cpp's own log lines about the load. */
function errorLines(exit: Exit): string[] {
    return exit.stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("[node-llama-cpp]"));
}

function assertOneClearLine(exit: Exit, pattern: RegExp) {
    assert.notEqual(exit.code, 0, `exit code ${exit.code}`);
    assert.equal(exit.signal, null, "it exits by itself, it is not killed");
    const lines = errorLines(exit);
    assert.equal(lines.length, 1, `expected one line, got:\n${exit.stderr}`);
    assert.match(lines[0], /^svc-studio: /);
    assert.match(lines[0], pattern);
    assert.doesNotMatch(exit.stderr, /^\s+at /m, "no stack trace");
}

test("serve prints where it listens, answers, and exits 0 promptly on SIGTERM with a stream in flight", async () => {
    const child = startCli([...serveArgs(modelPath), "--api-key", "ck_cli"]);
    const exited = waitForExit(child, 60_000);
    const url = await new Promise<string>((resolve, reject) => {
        let seen = "";
        const timer = setTimeout(() => reject(new Error(`no "listening on" line in 45 s: ${seen}`)), 45_000);
        child.stdout!.on("data", (chunk) => {
            seen += chunk;
            const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(seen);
            if (match != null) {
                clearTimeout(timer);
                resolve(match[1]);
            }
        });
        child.on("exit", () => reject(new Error(`exited before listening: ${seen}`)));
    });
    assert.ok(Number(new URL(url).port) > 0, "port 0 was replaced by the real port");

    const auth = {"Authorization": "Bearer ck_cli", "Content-Type": "application/json"};
    const models = await fetch(`${url}/svc-1/v1/models`, {headers: auth});
    assert.equal(models.status, 200);
    assert.equal((await models.json()).data[0].id, "svc-1");
    assert.equal((await fetch(`${url}/svc-1/v1/models`)).status, 401, "--api-key is enforced");

    const stream = await fetch(`${url}/svc-1/v1/chat/completions`, {
        method: "POST",
        headers: auth,
        // The fixture's greedy answer to "Hello" loops without end: the stream is still running at SIGTERM.
        body: JSON.stringify({model: "svc-1", messages: [{role: "user", content: "Hello"}], max_tokens: 3000, temperature: 0, stream: true})
    });
    const reader = stream.body!.getReader();
    await reader.read();

    const signalledAt = performance.now();
    child.kill("SIGTERM");
    const exit = await exited;
    const shutdownMs = performance.now() - signalledAt;
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.signal, null);
    assert.ok(shutdownMs < 5_000, `shut down in ${shutdownMs.toFixed(0)} ms`);
    assert.match(exit.stdout, /SIGTERM: shutting down/);
    await reader.read().then(() => undefined, () => undefined);
    await assert.rejects(fetch(`${url}/svc-1/v1/models`, {headers: auth}), "nothing listens after shutdown");
});

test("bad model files and arguments exit non-zero with one clear line", async () => {
    const notGguf = path.join(workDir, "notes.gguf");
    await writeFile(notGguf, "these are not model weights\n");
    const damaged = path.join(workDir, "damaged.gguf");
    await writeFile(damaged, "GGUFgarbage that only starts like a model");

    const cases: Array<[string, string[], RegExp]> = [
        ["missing file", serveArgs(path.join(workDir, "missing.gguf")), /not found: .*missing\.gguf$/],
        ["directory", serveArgs(workDir), /directory/],
        ["not a GGUF file", serveArgs(notGguf), /not a GGUF model file/],
        ["GGUF magic followed by junk", serveArgs(damaged), /damaged/],
        ["unknown flag", [...serveArgs(modelPath), "--bogus"], /bogus/],
        // Every origin at once is what a key is for; and an origin has no path.
        ["a wildcard CORS origin", [...serveArgs(modelPath), "--cors-origins", "http://app.example:3000,*"], /--cors-origins .*"\*".*--api-key/],
        ["a CORS origin with a path", [...serveArgs(modelPath), "--cors-origins", "http://app.example/ui"], /--cors-origins .*app\.example\/ui/]
    ];
    const exits = await Promise.all(cases.map(([, args]) => runCli(args, 30_000)));
    cases.forEach(([name, , pattern], index) => {
        try {
            assertOneClearLine(exits[index], pattern);
        } catch (error) {
            throw new Error(`${name}: ${(error as Error).message}`);
        }
    });
});

test("a GGUF file cut short exits non-zero with one svc-studio line and no stack trace", async () => {
    const truncated = path.join(workDir, "truncated.gguf");
    await writeFile(truncated, (await readFile(modelPath)).subarray(0, 5000));
    const exit = await runCli(serveArgs(truncated), 30_000);
    assertOneClearLine(exit, /truncated\.gguf/);
});

test("an unreadable model file exits non-zero with one clear line", async (t) => {
    if (process.getuid?.() === 0) {
        t.skip("running as root: permission bits do not stop root from reading, so chmod 000 cannot make the file unreadable");
        return;
    }
    const locked = path.join(workDir, "locked.gguf");
    await writeFile(locked, await readFile(modelPath));
    await chmod(locked, 0o000);
    assertOneClearLine(await runCli(serveArgs(locked), 30_000), /not readable/);
});
