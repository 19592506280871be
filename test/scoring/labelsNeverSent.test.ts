// Label columns hold the right answers, so they never reach the model unless the user ticks them. `svc-studio eval`
// and `svc-studio score` run against the real server on the built-in model behind a recording proxy, and every
// request that reached the server, and every request the run stored, is read: no label column in any of them.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {openSqlite} from "../../base/node/sqlite.ts";
import {startRecordedEngine, type ProxiedRequest} from "../support/recordingProxy.ts";

type ProxiedEngine = Awaited<ReturnType<typeof startRecordedEngine>>["proxy"];

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");
const labels = ["happy", "mood", "rating"];
const heroes = ["Kai", "Mia", "Tom", "Lily", "Ben", "Sue"];
const csv = ["id,story,hero,happy,mood,rating",
    ...heroes.map((hero, index) => `s${index},${hero} found a red ball in the park.,${hero},${index % 2 === 0 ? "yes" : "no"},${index % 3 === 0 ? "calm" : "sad"},${1 + index % 4}`)].join("\n");
const questionSet = (format: "decisions" | "systemone") => format === "decisions"
    ? {format, questions: [{type: "predicate", name: "happy", instructions: "Is the story happy?"}, {type: "choice", name: "mood", instructions: "Mood?", choices: [{value: "calm"}, {value: "sad"}]}]}
    : {format, questions: {happy: {type: "noul", instructions: "Is the story happy?"}}};

let dir: string;
let engine: Awaited<ReturnType<typeof startRecordedEngine>>;
let proxy: ProxiedEngine;

before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-labels-"));
    await writeFile(path.join(dir, "stories.csv"), `${csv}\n`);
    engine = await startRecordedEngine(dir);
    proxy = engine.proxy;
});
after(async () => {
    await engine?.close();
    await rm(dir, {recursive: true, force: true});
});

function run(args: string[]): Promise<{code: number | null, stdout: string, stderr: string}> {
    // The response cache goes under the test's folder, not the user's cache folder.
    const child = spawn(process.execPath, args, {cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: {...process.env, XDG_CACHE_HOME: dir}});
    let stdout = "", stderr = "";
    child.stdout.on("data", (chunk) => stdout += chunk);
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stdout, stderr}))));
}

/** The columns a decision request's input carries: the keys of the row object it was sent as. */
function sentColumns(body: Record<string, unknown>): string[] {
    const input = typeof body.input === "string" ? JSON.parse(body.input) : body.state;
    return Object.keys(input as Record<string, unknown>).sort();
}

const decisionRequests = (requests: readonly ProxiedRequest[]) => requests.filter((request) => /\/v1\/(decisions|systemone)$/.test(request.path));

async function writeExperiment(name: string, dataset: Record<string, unknown>, inputs: unknown[]): Promise<string> {
    const file = path.join(dir, `${name}.svc-experiment.json`);
    await writeFile(file, JSON.stringify({
        format: "svc-experiment", version: 1, id: name, name, seed: 1, concurrency: 2,
        dataset: {file: "stories.csv", labelColumns: labels, ...dataset},
        variants: inputs.map((input, index) => ({
            name: String.fromCharCode(65 + index),
            connection: {baseUrl: proxy.url},
            version: {prompt: {kind: "decision", questionSet: questionSet(index % 2 === 0 ? "decisions" : "systemone"), input}}
        }))
    }));
    return file;
}

function storedRequests(db: string): Array<Record<string, unknown>> {
    const database = openSqlite(db);
    try {
        return (database.prepare("SELECT result FROM results").pluck().all() as string[]).map((text) => (JSON.parse(text) as {cell: {request: Record<string, unknown>}}).cell.request);
    } finally {
        database.close();
    }
}

test("eval with whole-row input sends the columns the model sees, never a label column, on both decision endpoints", {timeout: 120_000}, async () => {
    for (const [name, dataset, expected] of [
        ["ticked", {inputColumns: ["story"]}, ["story"]],
        ["default", {}, ["hero", "id", "story"]]
    ] as const) {
        const file = await writeExperiment(name, dataset, [{kind: "row"}, {kind: "row"}]);
        const db = path.join(dir, `${name}.sqlite`);
        const before = proxy.requests.length;
        const result = await run([bin, "eval", file, "--db", db]);
        assert.equal(result.code, 0, result.stderr);
        const reached = decisionRequests(proxy.requests.slice(before));
        assert.equal(reached.length, heroes.length * 2, "every cell reached the server once");
        for (const request of reached) assert.deepEqual(sentColumns(request.body as Record<string, unknown>), expected, `${name}: ${JSON.stringify(request.body)}`);
        const stored = storedRequests(db);
        assert.equal(stored.length, heroes.length * 2);
        for (const request of stored) assert.deepEqual(sentColumns(request), expected, `${name}: stored ${JSON.stringify(request)}`);
    }
});

test("eval refuses a template or a column list that names a label column, before anything is sent, unless it is ticked", {timeout: 120_000}, async () => {
    const before = proxy.requests.length;
    const template = await run([bin, "eval", await writeExperiment("template", {}, [{kind: "template", template: "Story: {{story}} ({{mood}})"}]), "--db", path.join(dir, "template.sqlite")]);
    assert.equal(template.code, 2, template.stderr);
    assert.match(template.stderr, /variants\[0\]\.version\.prompt\.input: the input template names the label column "mood"/);
    const columns = await run([bin, "eval", await writeExperiment("columns", {}, [{kind: "row", columns: ["story", "happy"]}]), "--db", path.join(dir, "columns.sqlite")]);
    assert.equal(columns.code, 2, columns.stderr);
    assert.match(columns.stderr, /the whole-row input names the label column "happy"/);
    assert.equal(proxy.requests.length, before, "nothing reached the server");

    // Ticked as seen by the model, the same label column is sent on purpose.
    const ticked = await run([bin, "eval", await writeExperiment("ticked-mood", {inputColumns: ["story", "mood"]}, [{kind: "template", template: "Story: {{story}} ({{mood}})"}]), "--db", path.join(dir, "ticked.sqlite")]);
    assert.equal(ticked.code, 0, ticked.stderr);
    const sent = decisionRequests(proxy.requests.slice(before)).map((request) => (request.body as {input: string}).input);
    assert.deepEqual(sent.slice(0, 2), ["Story: Kai found a red ball in the park. (calm)", "Story: Mia found a red ball in the park. (sad)"]);
});

test("score without --template leaves the label columns out of every request, and refuses a template that names one", {timeout: 120_000}, async () => {
    const set = path.join(dir, "happy.json");
    await writeFile(set, JSON.stringify(questionSet("systemone")));
    const score = (args: string[]) => run(["--import", "tsx", "client/scoring/cli/score.ts", path.join(dir, "stories.csv"), "--questions", set, "--base-url", proxy.url, ...args]);
    const before = proxy.requests.length;
    const whole = await score(["--out", path.join(dir, "scored.csv")]);
    assert.equal(whole.code, 0, whole.stderr);
    assert.match(whole.stderr, /the model sees id, story, hero, mood, rating; label columns left out: happy/);
    const reached = decisionRequests(proxy.requests.slice(before));
    assert.equal(reached.length, heroes.length);
    for (const request of reached) assert.deepEqual(sentColumns(request.body as Record<string, unknown>), ["hero", "id", "mood", "rating", "story"]);

    // Named label columns are left out too; a template naming one is refused before anything is sent.
    const named = await score(["--out", path.join(dir, "named.csv"), "--label-columns", "happy,mood,rating"]);
    assert.equal(named.code, 0, named.stderr);
    for (const request of decisionRequests(proxy.requests.slice(before + heroes.length))) assert.deepEqual(sentColumns(request.body as Record<string, unknown>), ["hero", "id", "story"]);
    const count = proxy.requests.length;
    const refused = await score(["--out", path.join(dir, "refused.csv"), "--template", "{{story}} {{happy}}"]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /the input template names the label column "happy"/);
    assert.equal(proxy.requests.length, count, "nothing reached the server");
});
