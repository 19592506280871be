// Repeats headless, against the real server on the built-in model behind a recording proxy: each row is asked K
// times with its own seed, the answers come back from the cache under their own keys on a second run, the printed
// summary reports the repeats, and --row-passes fails the rows that passed in too few of their answers.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {startRecordedEngine} from "../../../test/support/recordingProxy.ts";
import {parseExperimentResults} from "../resultsFile.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");
let dir: string;
let engine: Awaited<ReturnType<typeof startRecordedEngine>>;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-repeats-"));
    engine = await startRecordedEngine(dir);
});
after(async () => {
    await engine?.close();
    await rm(dir, {recursive: true, force: true});
});

function evalCli(args: string[]): Promise<{code: number | null, stdout: string, stderr: string}> {
    const child = spawn(process.execPath, [bin, "eval", ...args], {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: {...process.env, XDG_CACHE_HOME: dir}});
    let stdout = "", stderr = "";
    child.stdout.on("data", (chunk) => stdout += chunk);
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stdout, stderr}))));
}

const rows = [["Kai found a ball.", ""], ["Mia lost her cat.", "yes"], ["Tom ate a cake.", ""], ["Sue saw a bird.", ""]];

/** Two chat variants at temperature 1, each row asked three times; the `strict` check applies to row 2 only and cannot pass. */
function repeatedExperiment(url: string) {
    return {
        format: "svc-experiment", version: 1, id: "repeats", name: "stories asked three times", seed: 40, createdAt: 0, sample: {kind: "all"}, repeats: 3,
        dataset: {id: "d", name: "stories", columns: ["story", "strict"], columnTypes: ["string", "string"], rows, labelColumns: ["strict"], inputColumns: ["story"], createdAt: 0, updatedAt: 0},
        checks: [{kind: "regex", pattern: "\\S"}, {kind: "regex", pattern: "^zzzz$", when: "strict"}],
        variants: ["Tell me about: {{story}}", "Go on: {{story}}"].map((content, index) => ({
            name: String.fromCharCode(65 + index), connection: {baseUrl: url}, params: {temperature: 1, max_tokens: 12},
            version: {itemId: "p", itemName: "Story", version: index + 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content}]}}}
        }))
    };
}

test("each row is asked three times with seeds 40, 41, 42; a second run is answered from the cache; --row-passes fails the row that passed too few times", {timeout: 180_000}, async () => {
    const {proxy} = engine;
    const file = path.join(dir, "repeats.svc-experiment.json");
    await writeFile(file, JSON.stringify(repeatedExperiment(proxy.url)));
    const results = path.join(dir, "repeats.svc-results.json");
    const first = await evalCli([file, "--results", results, "--row-passes", "2"]);
    assert.equal(first.code, 1, first.stderr + first.stdout);
    const chats = proxy.requests.filter((request) => request.path.endsWith("/chat/completions"));
    assert.equal(chats.length, rows.length * 2 * 3);
    // Every row of every variant went out three times, identical but for the seed.
    for (const [story] of rows)
        for (const opening of ["Tell me about", "Go on"]) {
            const sent = chats.filter((request) => JSON.stringify(request.body).includes(`${opening}: ${story}`)).map((request) => request.body as {seed: number, temperature: number});
            assert.deepEqual(sent.map((body) => body.seed).sort(), [40, 41, 42], `${opening}: ${story}`);
            assert.ok(sent.every((body) => body.temperature === 1));
        }
    const kept = parseExperimentResults(await readFile(results, "utf8"));
    assert.equal(kept.cells.length, rows.length * 2 * 3);
    const replies = (variant: number, rowIndex: number) => kept.cells.filter((cell) => cell.variant === variant && cell.rowIndex === rowIndex).sort((x, y) => (x.repeat ?? 0) - (y.repeat ?? 0)).map((cell) => cell.reply);
    assert.ok(rows.some((_row, rowIndex) => new Set(replies(0, rowIndex)).size > 1), "different seeds at temperature 1 give different replies");
    // The gate names the row that cannot pass, on both variants; the summary reports the repeats.
    assert.match(first.stderr + first.stdout, /rows passing in at least 2 of 3: missed, A 1 row \(row 2: 0 of 3\); B 1 row \(row 2: 0 of 3\)/);
    assert.match(first.stdout, /4 rows × 3 repeats/);
    assert.match(first.stdout, /pass\^k/);
    assert.match(first.stdout, /Prediction noise/);

    // Again, with its own results database gone: every answer comes from the response cache, each repeat its own.
    await rm(path.join(dir, "repeats.svc-experiment.results.sqlite"), {force: true});
    const before = proxy.requests.length;
    const again = path.join(dir, "again.svc-results.json");
    const second = await evalCli([file, "--results", again, "--row-passes", "1"]);
    assert.equal(proxy.requests.length, before, "nothing sent: every repeat was in the cache");
    const cached = parseExperimentResults(await readFile(again, "utf8"));
    for (const cell of cached.cells) {
        const earlier = kept.cells.find((other) => other.rowIndex === cell.rowIndex && other.variant === cell.variant && (other.repeat ?? 0) === (cell.repeat ?? 0))!;
        assert.equal(cell.reply, earlier.reply, `row ${cell.rowIndex} repeat ${cell.repeat ?? 0}`);
        assert.equal(cell.cached, true);
    }
    assert.equal(second.code, 1, "row 2 passes in none of its answers");
    assert.match(second.stderr + second.stdout, /rows passing in at least 1 of 3: missed/);
});
