// OpenAI prompt objects (test/fixtures/openai-prompts, written after the public Responses `prompt` parameter and
// request fields) as a saved Responses prompt with one version per OpenAI version; what has no counterpart reported
// with its line; bad input named by file, line and field; every version compared at once in an experiment.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {datasetFromTable} from "../../dataset.ts";
import {ImportError} from "../importProblems.ts";
import {nodeSourceFiles} from "../node/nodeSourceFiles.ts";
import {importOpenAiPrompt, promptVersionsExperiment, savedVersions} from "./importOpenAiPrompt.ts";

const fixtures = fileURLToPath(new URL("../../../../test/fixtures/openai-prompts/", import.meta.url));
const fixture = (name: string) => path.join(fixtures, name);
const promptId = "pmpt_68a1f0c2b7e48190a3d2c5e6f7a8b9c0";
let dir: string;
before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "svc-openai-prompt-"));
});
after(async () => {
    await rm(dir, {recursive: true, force: true});
});

test("a list of versions becomes one saved Responses prompt, a version each with its note; the rest is reported at its line", async () => {
    const imported = await importOpenAiPrompt(fixture("support-reply.json"), nodeSourceFiles, {createdAt: 5});
    assert.deepEqual([imported.promptId, imported.itemId, imported.itemName], [promptId, `openai-${promptId}`, "Support reply"]);
    assert.deepEqual(imported.variables, ["product", "question", "customer_name"]);
    assert.deepEqual(imported.versions.map((version) => [version.version, version.openAiVersion, version.model, version.note, version.createdAt]), [
        [1, "1", "gpt-4.1-mini", `OpenAI prompt ${promptId} version 1 · gpt-4.1-mini`, 1755385794000],
        [2, "2", "gpt-4.1-mini", `OpenAI prompt ${promptId} version 2 · gpt-4.1-mini · Names the customer; may look up an order`, 1755472194000],
        [3, "3", "gpt-4.1", `OpenAI prompt ${promptId} version 3 · gpt-4.1 · the default version · JSON reply with a tone label`, 1755558594000]
    ]);
    const [first, second, third] = savedVersions(imported);
    assert.deepEqual(first, {itemId: `openai-${promptId}`, itemName: "Support reply", version: 1, note: `OpenAI prompt ${promptId} version 1 · gpt-4.1-mini`, createdAt: 1755385794000, prompt: {
        kind: "chat", endpoint: "responses",
        body: {instructions: "You answer customers of {{product}}. Be friendly.", input: [{role: "user", content: "{{question}}"}], temperature: 0.7, top_p: 1, max_output_tokens: 256}
    }});
    // Content parts as text, the function tool kept with its {{variable}}, the web search tool left out.
    assert.deepEqual(second.prompt.kind === "chat" && second.prompt.body, {
        instructions: "You answer customers of {{product}}. Be friendly and brief.",
        input: [{role: "developer", content: "Address the customer by name."}, {role: "user", content: "Customer: {{customer_name}}\nQuestion: {{question}}"}],
        temperature: 0.3, top_p: 0.9, max_output_tokens: 200,
        tools: [{type: "function", name: "lookup_order", description: "Look up an order of {{product}} by its number",
            parameters: {type: "object", properties: {order_number: {type: "string"}}, required: ["order_number"], additionalProperties: false}, strict: true}],
        tool_choice: "auto"
    });
    assert.deepEqual(third.prompt.kind === "chat" && third.prompt.body, {
        instructions: "You answer customers of {{product}}. Be friendly and brief. Reply as JSON.",
        input: [{role: "user", content: "Customer: {{customer_name}}\nQuestion: {{question}}"}], temperature: 0.2, max_output_tokens: 200, seed: 7
    });
    assert.deepEqual(imported.report.items.map((item) => `${path.basename(item.file)}:${item.line}: ${item.field}`), [
        "support-reply.json:21: data[0].store",
        "support-reply.json:48: data[1].tools[1]",
        "support-reply.json:51: data[1].parallel_tool_calls",
        "support-reply.json:52: data[1].truncation",
        "support-reply.json:80: data[2].variables",
        "support-reply.json:71: data[2].text.format",
        "support-reply.json:77: data[2].text.verbosity",
        "support-reply.json:81: data[2].metadata"
    ]);
    assert.match(imported.report.lines()[5], /text\.format "json_schema" is not imported: the local engine's Responses endpoint has no JSON mode/);
});

test("one version named by a Responses prompt reference, with instructions only: its input is the row's {{input}}", async () => {
    const imported = await importOpenAiPrompt(fixture("tone-check.json"), nodeSourceFiles, {createdAt: 5});
    assert.deepEqual(savedVersions(imported), [{itemId: "openai-pmpt_68b2a1d3c4e58190b4e3d6f7a8b9c0d1", itemName: "pmpt_68b2a1d3c4e58190b4e3d6f7a8b9c0d1", version: 1,
        note: "OpenAI prompt pmpt_68b2a1d3c4e58190b4e3d6f7a8b9c0d1 version 4 · gpt-4.1-nano", createdAt: 5, prompt: {kind: "chat", endpoint: "responses", body: {
            instructions: "Say whether this customer message is positive or negative: {{message}}", temperature: 0, max_output_tokens: 16, input: "{{input}}"
        }}}]);
    assert.deepEqual(imported.variables, ["message", "input"]);
    assert.deepEqual(imported.report.lines().map((line) => line.replace(fixtures, "")), [
        "not imported: tone-check.json:5: prompt.variables: the variables' values are not imported: in an experiment each dataset row's cells fill them",
        "note: a version with no input messages sends {{input}} as its input: the dataset's input column is the message a caller would send with the prompt"
    ]);
});

test("every version compared on a dataset at once: a variant per version on the local engine with its model", async () => {
    const imported = await importOpenAiPrompt(fixture("support-reply.json"), nodeSourceFiles, {createdAt: 5});
    const dataset = datasetFromTable({name: "questions", columns: ["product", "customer_name", "question"], rows: [["Acme Router", "Dana", "How do I reset it?"], ["Acme Router", "Lee", "Is it on sale?"]], labelColumns: []});
    const spec = promptVersionsExperiment(imported, {file: "support-reply.json", id: "support", dataset, createdAt: 9});
    assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.model, variant.connection, variant.version.version, variant.version.itemId]), [
        ["version 1", "gpt-4.1-mini", {profile: "local"}, 1, `openai-${promptId}`],
        ["version 2", "gpt-4.1-mini", {profile: "local"}, 2, `openai-${promptId}`],
        ["version 3", "gpt-4.1", {profile: "local"}, 3, `openai-${promptId}`]
    ]);
    assert.deepEqual([spec.name, spec.sample, spec.checks, spec.createdAt], ["Support reply", {kind: "all"}, [], 9]);
    const short = datasetFromTable({name: "questions", columns: ["question"], rows: [["How?"]], labelColumns: []});
    assert.throws(() => promptVersionsExperiment(imported, {file: "support-reply.json", id: "support", dataset: short}),
        {message: "support-reply.json: --dataset: the dataset has no column \"product\", \"customer_name\"; the versions use {{product}}, {{question}}, {{customer_name}} (columns: \"question\")"});
});

test("bad input: the file, line and field at fault, with the report so far", async () => {
    const failure = async (text: string) => {
        const file = path.join(dir, "prompt.json");
        await writeFile(file, text);
        const error = await importOpenAiPrompt(file, nodeSourceFiles).then(() => null, (thrown: unknown) => thrown);
        assert.ok(error instanceof ImportError, String(error));
        return error.message.replace(dir, "<dir>");
    };
    assert.equal(await failure("{\n  \"id\": \"pmpt_1\",\n  \"version\": \"1\",\n}\n"), "<dir>/prompt.json:4: not valid JSON: Expected double-quoted property name");
    assert.equal(await failure("{\"id\": \"pmpt_1\", \"input\": \"hi\""), "<dir>/prompt.json:1: not valid JSON: Expected ',' or '}' after property value");
    assert.equal(await failure("[\n  {\"version\": \"1\", \"input\": \"{{q}}\"}\n]"), "<dir>/prompt.json:2: [0].id: each version names its prompt: \"id\": \"pmpt_...\" (or prompt.id, as a Responses request does)");
    assert.equal(await failure("[{\"id\": \"pmpt_1\", \"version\": \"1\", \"input\": \"a\"},\n {\"id\": \"pmpt_2\", \"version\": \"2\", \"input\": \"b\"}]"),
        "<dir>/prompt.json:2: [1].id: a file holds the versions of one prompt: this is pmpt_2, the first is pmpt_1");
    assert.equal(await failure("[{\"id\": \"pmpt_1\", \"version\": \"1\", \"input\": \"a\"},\n {\"id\": \"pmpt_1\", \"version\": \"1\", \"input\": \"b\"}]"), "<dir>/prompt.json:1: [0].version: version 1 is in the file twice");
    assert.equal(await failure("{\"object\": \"list\", \"data\": [\n  {\"id\": \"pmpt_1\", \"version\": \"1\", \"model\": \"m\", \"store\": false}\n]}"),
        "<dir>/prompt.json:2: data[0]: a prompt version holds instructions or input messages, and this one has neither");
    const broken = await importOpenAiPrompt(path.join(dir, "absent.json"), nodeSourceFiles).then(() => null, (thrown: unknown) => thrown);
    assert.ok(broken instanceof ImportError);
    assert.equal(broken.message, `${path.join(dir, "absent.json")}: no such file: ${path.join(dir, "absent.json")}`);
    // The report so far travels with the error (store was left out before the missing content stopped it).
    const partial = await importOpenAiPrompt(path.join(dir, "prompt.json"), nodeSourceFiles).then(() => null, (thrown: unknown) => thrown);
    assert.ok(partial instanceof ImportError && partial.report !== undefined);
    assert.match(partial.report.lines()[0], /data\[0\]\.store: store is OpenAI's storage/);
});
