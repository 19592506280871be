// OpenAI files picked in the app, told apart by what they hold: an eval export imported as the command line imports
// it, every variant on the local engine, its output items the OpenAI run's results; a prompt object file found as one;
// an experiment file left to its own reader; what is missing said by name.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFile} from "node:fs/promises";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {parseExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import {parseExperimentResults} from "../../../../client/experiments/resultsFile.ts";
import {openAiEvalExperiment, openAiPick} from "./openAiFiles.ts";

const fixtures = fileURLToPath(new URL("../../../../test/fixtures/", import.meta.url));
const pick = async (folder: string, names: string[]) => Promise.all(names.map(async (name) => new File([await readFile(path.join(fixtures, folder, name))], name)));

test("an eval with its run, items and output items: the experiment on the local engine, and OpenAI's run as its results", async () => {
    const files = await pick("openai-evals", ["output_items.json", "items.jsonl", "run.json", "eval.json"]);
    const found = await openAiPick(files);
    assert.deepEqual(found, {kind: "eval", evalFile: "eval.json", runFiles: ["run.json"], dataFile: "items.jsonl", outputItemsFile: "output_items.json"});
    assert.ok(found?.kind === "eval");
    const imported = await openAiEvalExperiment(files, found, 5);
    assert.ok(!("error" in imported), JSON.stringify(imported));
    const spec = parseExperimentSpec(imported.text);
    assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.connection, variant.model]), [["gpt-4o-mini terse", {profile: "local"}, undefined]]);
    assert.equal("rows" in spec.dataset && spec.dataset.rows.length, 4);
    assert.equal(spec.checks.length, 5);
    assert.equal(spec.createdAt, 5);
    assert.ok(imported.previous !== undefined);
    const previous = parseExperimentResults(imported.previous);
    assert.deepEqual([previous.experiment.name, previous.experiment.variants[0].connection, previous.cells.map((cell) => cell.reply)],
        ["News headline topics (OpenAI's run)", {profile: "local"}, ["Markets", "Business, or maybe technology"]]);
    assert.match(imported.lines.join("\n"), /not imported: eval\.json:101: metadata/);
});

test("a prompt object file is one to save; an experiment file and a lone JSONL are no OpenAI pick; a run alone is said to need its eval", async () => {
    const [prompt] = await pick("openai-prompts", ["support-reply.json"]);
    assert.deepEqual(await openAiPick([prompt]), {kind: "prompt", file: prompt});
    const experiment = new File([JSON.stringify({format: "svc-experiment", version: 1, id: "pmpt_like", variants: []})], "x.svc-experiment.json");
    assert.equal(await openAiPick([experiment]), null);
    assert.equal(await openAiPick(await pick("openai-evals", ["items.jsonl"])), null);
    assert.deepEqual(await openAiPick(await pick("openai-evals", ["run.json", "items.jsonl"])), {kind: "without eval", files: ["run.json"]});
});

test("an eval without a run, or whose run's items were not picked: said, and nothing imported", async () => {
    const lone = await pick("openai-evals", ["eval.json"]);
    const found = await openAiPick(lone);
    assert.ok(found?.kind === "eval");
    assert.deepEqual(await openAiEvalExperiment(lone, found, 0), {error: "eval.json: an eval holds no prompt: pick one or more of its runs (each as GET /v1/evals/{eval_id}/runs/{run_id} returns it) together with it"});
    const run = JSON.parse(await readFile(path.join(fixtures, "openai-evals/run.json"), "utf8")) as {data_source: {source: unknown}};
    run.data_source.source = {type: "file_id", id: "file-abc123"};
    const files = [...lone, new File([JSON.stringify(run, null, 2)], "run.json")];
    const uploaded = await openAiEvalExperiment(files, {kind: "eval", evalFile: "eval.json", runFiles: ["run.json"]}, 0);
    assert.ok("error" in uploaded);
    assert.match(uploaded.error, /run\.json:\d+: data_source\.source: the run's data is the uploaded file "file-abc123": pick its items JSONL together with it$/);
});
