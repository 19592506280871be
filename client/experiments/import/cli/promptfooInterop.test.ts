// promptfoo itself on an imported-then-exported suite, against the same real server as `svc-studio eval`: the same
// replies, and the same pass / fail per row and per assertion. promptfoo is no dependency of this project (it needs
// Node 20.20 or 22.22+ and a native SQLite build): the check runs where SVC_PROMPTFOO_BIN names its executable
// (e.g. node_modules/.bin/promptfoo of an `npm install promptfoo` elsewhere) and is skipped, saying so, elsewhere.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdir, mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {startRecordedEngine} from "../../../../test/support/recordingProxy.ts";
import {parseExperimentResults} from "../../resultsFile.ts";

const promptfoo = process.env.SVC_PROMPTFOO_BIN;
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");
let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-promptfoo-interop-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

function run(command: string, args: string[], options: {cwd?: string, env?: Record<string, string>} = {}): Promise<{code: number | null, output: string}> {
    const child = spawn(command, args, {cwd: options.cwd ?? repoRoot, stdio: ["ignore", "pipe", "pipe"], env: {...process.env, XDG_CACHE_HOME: dir, ...options.env}});
    let output = "";
    child.stdout.on("data", (chunk) => output += chunk);
    child.stderr.on("data", (chunk) => output += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, output}))));
}

const suite = (baseUrl: string) => `description: Stories cross-check
prompts:
  - "Once upon a time, {{hero}}"
  - "{{hero}} went to the"
providers:
  - id: openai:chat:stories260K
    label: stories
    config: {apiBaseUrl: "${baseUrl}/v1", max_tokens: 16, temperature: 0, seed: 7}
defaultTest:
  assert:
    - {type: not-contains, value: "zzz"}
tests:
  - vars: {hero: Lily}
    assert: [{type: icontains, value: "the"}, {type: regex, value: "[a-z]+ [a-z]+"}]
  - vars: {hero: Tom}
    assert: [{type: starts-with, value: "Tom"}, {type: contains-any, value: [park, ball, dog]}]
  - vars: {hero: Sue}
    assert: [{type: contains, value: "was"}, {type: not-icontains, value: "happy"}]
  - vars: {hero: Ben}
    assert: [{type: contains-all, value: [the, a]}, {type: is-json}]
`;

type PromptfooResult = {provider: {label: string}, testIdx: number, success: boolean, response: {output: string}, gradingResult: {componentResults: Array<{pass: boolean}>}};

test("promptfoo and svc-studio eval agree on every reply, row and assertion of an exported suite", {timeout: 600_000, skip: promptfoo === undefined ? "SVC_PROMPTFOO_BIN is not set (promptfoo is not installed here)" : false}, async () => {
    const engine = await startRecordedEngine(path.join(dir, "engine"));
    try {
        await writeFile(path.join(dir, "promptfooconfig.yaml"), suite(engine.proxy.url));
        const experiment = path.join(dir, "stories.svc-experiment.json");
        const imported = await run(process.execPath, [bin, "import", "promptfoo", path.join(dir, "promptfooconfig.yaml"), "--out", experiment]);
        assert.equal(imported.code, 0, imported.output);
        const results = path.join(dir, "stories.svc-results.json");
        const evaluated = await run(process.execPath, [bin, "eval", experiment, "--results", results, "--no-cache", "--db", path.join(dir, "stories.sqlite")]);
        assert.equal(evaluated.code, 0, evaluated.output);
        const out = path.join(dir, "export");
        await mkdir(out);
        const exported = await run(process.execPath, [bin, "export", "promptfoo", experiment, "--out", path.join(out, "promptfooconfig.yaml")]);
        assert.equal(exported.code, 0, exported.output);
        const ran = await run(promptfoo!, ["eval", "-c", "promptfooconfig.yaml", "-o", "results.json", "--no-cache", "--no-progress-bar"], {
            cwd: out, env: {SVC_API_KEY: "unused", PROMPTFOO_DISABLE_TELEMETRY: "1", PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: path.join(dir, "promptfoo-home")}
        });
        // promptfoo exits 100 when a test fails; anything else but 0 is a failure to run.
        assert.ok(ran.code === 0 || ran.code === 100, ran.output);

        const ours = parseExperimentResults(await readFile(results, "utf8"));
        const theirs = (JSON.parse(await readFile(path.join(out, "results.json"), "utf8")) as {results: {results: PromptfooResult[]}}).results.results;
        assert.equal(theirs.length, ours.cells.length);
        for (const cell of ours.cells) {
            const name = ours.experiment.variants[cell.variant].name;
            const result = theirs.find((item) => item.provider.label === name && item.testIdx === cell.rowIndex);
            assert.ok(result !== undefined, `promptfoo has no result for ${name}, row ${cell.rowIndex}`);
            assert.equal(result.response.output, cell.reply, `${name}, row ${cell.rowIndex}: the same reply`);
            const asserted = (cell.checks ?? []).filter((check) => check.detail !== "not asserted on this row");
            assert.deepEqual(result.gradingResult.componentResults.map((component) => component.pass), asserted.map((check) => check.pass), `${name}, row ${cell.rowIndex}: ${cell.reply}`);
            assert.equal(result.success, asserted.every((check) => check.pass));
        }
    } finally {
        await engine.close();
    }
});
