// `svc-studio import openai-prompt` as a command: without a dataset or with bad JSON nothing is written (exit 2, the
// file, line and field named); with one, every version of the prompt is a variant, and the experiment runs with
// `svc-studio eval` against the real server on the built-in model, each request carrying its version's instructions,
// input and parameters with the row's cells in its {{variables}}.
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
const fixture = path.join(repoRoot, "test/fixtures/openai-prompts/support-reply.json");
let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-import-prompt-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

const cli = (args: string[]) => svcStudio(args, dir);

const exists = (file: string) => access(file).then(() => true, () => false);

test("bad input: exit 2, the file, line and field named, and nothing written", {timeout: 60_000}, async () => {
    const out = path.join(dir, "none.svc-experiment.json");
    const noDataset = await cli(["import", "openai-prompt", fixture, "--out", out]);
    assert.equal(noDataset.code, 2);
    assert.match(noDataset.stderr, /import: .*support-reply\.json: --dataset: name the dataset the versions are compared on: --dataset <rows\.csv> \(CSV or XLSX\) with a column per variable: product, question, customer_name\n$/);
    const broken = path.join(dir, "broken.json");
    await writeFile(broken, "{\n  \"id\": \"pmpt_1\",\n  \"input\": [\"a\" \"b\"]\n}\n");
    const bad = await cli(["import", "openai-prompt", broken, "--dataset", path.join(dir, "rows.csv"), "--out", out]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, `import: ${broken}:3: not valid JSON: Expected ',' or ']' after array element\n`);
    const wrongFlag = await cli(["import", "promptfoo", broken, "--dataset", "rows.csv"]);
    assert.match(wrongFlag.stderr, /^import: --dataset is for openai-prompt\n/);
    assert.equal(await exists(out), false);
});

test("every version a variant, run with svc-studio eval on the real server: each request its version's content with the row's cells", {timeout: 300_000}, async () => {
    const engine = await startRecordedEngine(path.join(dir, "engine"));
    try {
        const rows = path.join(dir, "rows.csv");
        await writeFile(rows, "product,customer_name,question\nAcme Router,Dana,How do I reset it?\nAcme Router,Lee,Is it on sale?\n");
        const out = path.join(dir, "support.svc-experiment.json");
        const imported = await cli(["import", "openai-prompt", fixture, "--dataset", rows, "--out", out, "--base-url", engine.proxy.url]);
        assert.equal(imported.code, 0, imported.stderr);
        assert.match(imported.stderr, /not imported: .*support-reply\.json:48: data\[1\]\.tools\[1\]: a "web_search_preview" tool is not imported/);
        assert.match(imported.stderr, /wrote .*support\.svc-experiment\.json: 3 variants, 2 rows, 0 checks\n$/);
        const results = path.join(dir, "support.svc-results.json");
        const run = await cli(["eval", out, "--results", results, "--no-cache", "--db", path.join(dir, "support.sqlite")]);
        assert.equal(run.code, 0, run.stderr);
        type Sent = {instructions: string, input: unknown, temperature: number, max_output_tokens: number, tools?: Array<{description: string}>, seed?: number};
        const sent = engine.proxy.requests.filter((request) => request.path.endsWith("/v1/responses")).map((request) => request.body as Sent);
        const dana = (body: Sent) => JSON.stringify(body.input).includes("Dana") || JSON.stringify(body.input).includes("reset");
        assert.equal(sent.length, 6, "3 versions × 2 rows");
        assert.deepEqual(sent.filter(dana).map((body) => [body.instructions, body.input, body.temperature, body.max_output_tokens, body.seed ?? null, body.tools?.[0].description ?? null])
            .sort((a, b) => Number(a[2]) - Number(b[2])), [
            ["You answer customers of Acme Router. Be friendly and brief. Reply as JSON.", [{role: "user", content: "Customer: Dana\nQuestion: How do I reset it?"}], 0.2, 200, 7, null],
            ["You answer customers of Acme Router. Be friendly and brief.", [{role: "developer", content: "Address the customer by name."}, {role: "user", content: "Customer: Dana\nQuestion: How do I reset it?"}],
                0.3, 200, null, "Look up an order of Acme Router by its number"],
            ["You answer customers of Acme Router. Be friendly.", [{role: "user", content: "How do I reset it?"}], 0.7, 256, null, null]
        ]);
        const read = parseExperimentResults(await readFile(results, "utf8"));
        assert.deepEqual(read.experiment.variants.map((variant) => [variant.name, variant.version.note.split(" · ")[0]]), [
            ["version 1", "OpenAI prompt pmpt_68a1f0c2b7e48190a3d2c5e6f7a8b9c0 version 1"],
            ["version 2", "OpenAI prompt pmpt_68a1f0c2b7e48190a3d2c5e6f7a8b9c0 version 2"],
            ["version 3", "OpenAI prompt pmpt_68a1f0c2b7e48190a3d2c5e6f7a8b9c0 version 3"]
        ]);
        assert.deepEqual(read.cells.map((cell) => cell.error ?? null), [null, null, null, null, null, null]);
    } finally {
        await engine.close();
    }
});
