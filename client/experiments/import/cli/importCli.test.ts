// `svc-studio import promptfoo` as a command: bad input leaves nothing written (exit 2, the file, line and field
// named), a 100,000-line JSONL suite imports inside a 128 MiB heap, and an imported suite runs with `svc-studio eval`
// against the real server on the built-in model, its requests carrying each test's variables and its checks
// judged on the replies as promptfoo's assertions would be.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {access, mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {startRecordedEngine} from "../../../../test/support/recordingProxy.ts";
import {svcStudio} from "../../../../test/support/svcStudioCli.ts";
import {parseExperimentResults} from "../../resultsFile.ts";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
let dir: string;
let started: Promise<Awaited<ReturnType<typeof startRecordedEngine>>> | undefined;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-import-cli-"));
});
after(async () => {
    await (await started)?.close();
    await rm(dir, {recursive: true, force: true});
});
/** The real server on the built-in model, behind a recording proxy: started once, for the tests that run an import. */
const engineOnce = () => started ??= startRecordedEngine(path.join(dir, "engine"));

const cli = (args: string[], env: Record<string, string> = {}) => svcStudio(args, dir, env);

const exists = (file: string) => access(file).then(() => true, () => false);

test("bad input: exit 2, the file, line and field named, and no experiment file written", {timeout: 60_000}, async () => {
    const config = path.join(dir, "bad.yaml");
    const out = path.join(dir, "bad.svc-experiment.json");
    await writeFile(config, "prompts: [\"{{q}}\"]\nproviders: [openai:chat:m]\ntests:\n  - vars: {q: a}\n  - file://absent.jsonl\n");
    const missing = await cli(["import", "promptfoo", config, "--out", out]);
    assert.equal(missing.code, 2, missing.stderr);
    // The report so far, then the error.
    assert.equal(missing.stderr, "import: note: openai:chat:m names no apiBaseUrl: its variant runs on the app's local engine (svc-studio eval --local <url> sends it to a running svc-studio serve)\n" +
        `import: ${config}:5: tests[1]: no such file: ${path.join(dir, "absent.jsonl")}\n`);
    assert.equal(await exists(out), false);
    const usage = await cli(["import", "langsmith", config]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^import: unknown format "langsmith" \(known: promptfoo, openai-eval, openai-prompt\)\nusage: svc-studio import promptfoo/);
});

test("a 100,000-line JSONL suite imports inside a 128 MiB heap, read as a stream", {timeout: 180_000}, async () => {
    const lines = Array.from({length: 100_000}, (_, index) => JSON.stringify({vars: {q: `question ${index}`}, assert: [{type: "icontains", value: `answer ${index}`}]}));
    await writeFile(path.join(dir, "big.jsonl"), `${lines.join("\n")}\n`);
    const config = path.join(dir, "big.yaml");
    await writeFile(config, "prompts: [\"Q: {{q}}\"]\nproviders: [openai:chat:m]\ntests: file://big.jsonl\n");
    const out = path.join(dir, "big.svc-experiment.json");
    const run = await cli(["import", "promptfoo", config, "--out", out], {NODE_OPTIONS: "--max-old-space-size=128"});
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /it runs 50,000 of them at random \(seed 1/);
    const spec = JSON.parse(await readFile(out, "utf8")) as {dataset: {rows: unknown[][]}, sample: unknown};
    assert.equal(spec.dataset.rows.length, 100_000);
    assert.deepEqual(spec.dataset.rows[99_999], ["question 99999", "answer 99999"]);
    assert.deepEqual(spec.sample, {kind: "random", n: 50_000, seed: 1});
});

test("an imported suite runs with svc-studio eval against the server its provider names", {timeout: 300_000}, async () => {
    const engine = await engineOnce();
    const before = engine.proxy.requests.length;
    {
        const config = path.join(dir, "promptfooconfig.yaml");
        await writeFile(config, `description: Stories
prompts:
  - "Once upon a time, {{hero}}"
providers:
  - id: openai:chat:stories260K
    config: {apiBaseUrl: "${engine.proxy.url}/v1", max_tokens: 12, temperature: 0, seed: 3}
defaultTest:
  assert:
    - {type: not-contains, value: "zzz"}
tests:
  - vars: {hero: Lily}
    assert: [{type: icontains, value: "the"}]
  - vars: {hero: Tom}
    assert: [{type: starts-with, value: "Tom"}, {type: llm-rubric, value: "is a story"}]
`);
        const out = path.join(dir, "stories.svc-experiment.json");
        const imported = await cli(["import", "promptfoo", config, "--out", out]);
        assert.equal(imported.code, 0, imported.stderr);
        assert.equal(imported.stderr, `import: every field was imported\nimport: wrote ${out}: 1 variant, 2 rows, 4 checks\n`);
        const results = path.join(dir, "stories.svc-results.json");
        const run = await cli(["eval", out, "--results", results, "--no-cache", "--db", path.join(dir, "stories.sqlite")]);
        assert.equal(run.code, 0, run.stderr);
        const chats = engine.proxy.requests.slice(before).filter((request) => request.path === "/svc-1/v1/chat/completions").map((request) => request.body as {messages: unknown, max_tokens: number, seed: number});
        assert.deepEqual(chats.map((body) => [body.messages, body.max_tokens, body.seed]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))), [
            [[{role: "user", content: "Once upon a time, Lily"}], 12, 3],
            [[{role: "user", content: "Once upon a time, Tom"}], 12, 3]
        ]);
        assert.equal(engine.proxy.requests.slice(before).filter((request) => request.path === "/svc-1-decision/v1/decisions").length, 1, "the rubric is asked on Tom's row only");
        const read = parseExperimentResults(await readFile(results, "utf8"));
        for (const cell of read.cells) {
            const reply = cell.reply ?? "";
            const checks = Object.fromEntries((cell.checks ?? []).map((check) => [check.name, check]));
            // promptfoo's rules, applied here to the reply the server gave.
            assert.equal(checks["contains_not-contains"].pass, !reply.includes("zzz"));
            assert.equal(checks.contains_icontains.pass, cell.rowIndex === 0 ? reply.toLowerCase().includes("the") : true);
            assert.equal(checks["starts_with_starts-with"].pass, cell.rowIndex === 1 ? reply.trim().startsWith("Tom") : true);
            if (cell.rowIndex === 0) assert.equal(checks["llm-rubric"].detail, "not asserted on this row");
            else assert.ok(checks["llm-rubric"].score > 0 && checks["llm-rubric"].score < 1, "a probability, not a sampled label");
        }
    }
});

test("an imported OpenAI eval runs: its label_model and score_model graders are choice and score questions on /v1/decisions", {timeout: 300_000}, async () => {
    const engine = await engineOnce();
    const before = engine.proxy.requests.length;
    const fixtures = path.join(repoRoot, "test/fixtures/openai-evals");
    const out = path.join(dir, "news.svc-experiment.json");
    // The built-in model's context is 2,048 tokens: the run's 2,048 output tokens are lowered to 16.
    const run16 = JSON.parse(await readFile(path.join(fixtures, "run.json"), "utf8")) as {data_source: {sampling_params: Record<string, number>}};
    run16.data_source.sampling_params.max_completions_tokens = 16;
    await writeFile(path.join(dir, "run.json"), JSON.stringify(run16));
    const imported = await cli(["import", "openai-eval", path.join(fixtures, "eval.json"), "--run", path.join(dir, "run.json"), "--output-items", path.join(fixtures, "output_items.json"), "--out", out, "--base-url", engine.proxy.url]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stderr, /wrote .*news\.svc-experiment\.json: 1 variant, 3 rows, 5 checks\nimport: wrote .*news\.previous\.svc-results\.json: the previous run's 2 outputs/);
    const results = path.join(dir, "news.svc-results.json");
    // The new run against the previous one's outputs, on the rows both have.
    const json = path.join(dir, "news.report.json");
    const run = await cli(["eval", out, "--results", results, "--no-cache", "--db", path.join(dir, "news.sqlite"), "--baseline", path.join(dir, "news.previous.svc-results.json"), "--json", json]);
    assert.equal(run.code, 0, run.stderr);
    const baseline = (JSON.parse(await readFile(json, "utf8")) as {baseline: {matched: number, tests: Array<{title: string, rows: number, unpaired: number, baselineValue: number}>}}).baseline;
    // Every row matched by its item fields; the pass rate compared on the two rows the previous run answered, where it passed one.
    assert.equal(baseline.matched, 3, JSON.stringify(baseline));
    assert.deepEqual(baseline.tests.map((item) => [item.title, item.rows, item.unpaired, item.baselineValue]), [["gpt-4o-mini terse · Pass rate", 2, 1, 0.5]]);
    const decisions = engine.proxy.requests.slice(before).filter((request) => request.path === "/svc-1-decision/v1/decisions").map((request) => (request.body as {questions: Array<{type: string}>}).questions[0].type);
    assert.deepEqual(decisions.sort(), ["choice", "choice", "choice", "score", "score", "score"], `${run.stderr}\n${JSON.stringify(engine.proxy.requests.slice(before).map((request) => request.path))}`);
    const read = parseExperimentResults(await readFile(results, "utf8"));
    assert.equal(read.cells.length, 3);
    assert.deepEqual(read.cells.map((cell) => cell.error ?? null), [null, null, null]);
    for (const cell of read.cells) {
        const checks = Object.fromEntries((cell.checks ?? []).map((check) => [check.name, check]));
        const topic = String(read.experiment.dataset.rows[cell.rowIndex][1]);
        assert.equal(checks.equals_topic.pass, (cell.reply ?? "").trim() === topic);
        assert.match(checks.Tone.detail ?? "", /^P\(neutral\) = 0\.\d{3}$/);
        assert.ok(checks.Tone.score > 0 && checks.Tone.score < 1);
        assert.equal(checks.Confidence.pass, checks.Confidence.score >= 0.6);
    }
});
