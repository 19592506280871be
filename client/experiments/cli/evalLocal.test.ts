// An experiment file as the app exports it runs headless as it is: its `{"profile": "local"}` connections go to the
// server `--local` names, `--results` writes the file the app opens as a kept experiment, and a CSV's numbers are sent
// as numbers, as the app sends them. Against the real server on the built-in model, behind a recording proxy.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {startRecordedEngine} from "../../../test/support/recordingProxy.ts";
import {parseExperimentResults} from "../resultsFile.ts";
import {summarizeExperiment} from "../summary.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");
let dir: string;
let engine: Awaited<ReturnType<typeof startRecordedEngine>>;
let proxy: Awaited<ReturnType<typeof startRecordedEngine>>["proxy"];

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-eval-local-"));
    engine = await startRecordedEngine(dir);
    proxy = engine.proxy;
});
after(async () => {
    await engine?.close();
    await rm(dir, {recursive: true, force: true});
});

function evalCli(args: string[]): Promise<{code: number | null, stderr: string}> {
    const child = spawn(process.execPath, [bin, "eval", ...args], {cwd: repoRoot, stdio: ["ignore", "ignore", "pipe"], env: {...process.env, XDG_CACHE_HOME: dir}});
    let stderr = "";
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stderr}))));
}

const rows = [["Kai found a ball.", 4, "yes"], ["Mia lost her cat.", 1, "no"], ["Tom ate a cake.", 5, "yes"]];
/** What the app exports: the dataset inline (numbers typed), every connection the app's local engine. */
const appExport = {
    format: "svc-experiment", version: 1, id: "app-export", name: "stories", seed: 1, createdAt: 0, sample: {kind: "all"}, checks: [],
    dataset: {id: "d", name: "stories", columns: ["story", "stars", "happy"], columnTypes: ["string", "number", "string"], rows, labelColumns: ["happy"], inputColumns: ["story", "stars"], createdAt: 0, updatedAt: 0},
    variants: ["Is the story happy?", "Does the story end well?"].map((instructions, index) => ({
        name: String.fromCharCode(65 + index), connection: {profile: "local"}, model: "stories260K",
        version: {itemId: "q", itemName: "Happy", version: index + 1, note: "", createdAt: 0,
            prompt: {kind: "decision", input: {kind: "row"}, questionSet: {format: "decisions", questions: [{type: "predicate", name: "happy", instructions}]}}}
    }))
};

test("an app-exported file runs with --local; --results writes what the app opens, with the numbers the summary had", {timeout: 120_000}, async () => {
    const file = path.join(dir, "app.svc-experiment.json");
    await writeFile(file, JSON.stringify(appExport));
    const refused = await evalCli([file, "--no-cache"]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /variants\[0\]\.connection: the app's local engine: pass --local <url>/);
    assert.equal(proxy.requests.length, 0);

    const results = path.join(dir, "out", "app.svc-results.json");
    const run = await evalCli([file, "--local", proxy.url, "--results", results, "--no-cache"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(proxy.requests.filter((request) => request.path.endsWith("/v1/decisions")).length, 6, "3 rows x 2 variants reached the --local server");
    const read = parseExperimentResults(await readFile(results, "utf8"));
    assert.equal(read.cells.length, 6);
    assert.deepEqual(read.rowIndexes, [0, 1, 2]);
    // The file keeps the app's connections: the app opens it on its own local engine.
    assert.deepEqual(read.experiment.variants.map((variant) => variant.connection), [{profile: "local"}, {profile: "local"}]);
    const summary = summarizeExperiment(read.experiment, read.experiment.dataset, read.cells, {rowIndexes: read.rowIndexes});
    assert.equal(summary.variants[0].done, 3);
    assert.match(run.stderr, /wrote .*app\.svc-results\.json/);
});

test("a CSV dataset's numbers are sent as numbers, as the app sends them", {timeout: 120_000}, async () => {
    await writeFile(path.join(dir, "stories.csv"), `story,stars,happy\n${rows.map((row) => row.join(",")).join("\n")}\n`);
    const file = path.join(dir, "csv.svc-experiment.json");
    await writeFile(file, JSON.stringify({...appExport, id: "csv", dataset: {file: "stories.csv", labelColumns: ["happy"]}, variants: appExport.variants.slice(0, 1)}));
    const before = proxy.requests.length;
    const run = await evalCli([file, "--local", proxy.url, "--no-cache"]);
    assert.equal(run.code, 0, run.stderr);
    const inputs = proxy.requests.slice(before).map((request) => JSON.parse((request.body as {input: string}).input) as Record<string, unknown>);
    assert.deepEqual(inputs, rows.map(([story, stars]) => ({stars, story})));
});
