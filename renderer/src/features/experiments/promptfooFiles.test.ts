// A promptfoo config picked in the app with the files it names: imported as the command line imports it, every
// variant on the local engine; a file it names that was not picked is said by name.
import {test} from "node:test";
import assert from "node:assert/strict";
import {readFile} from "node:fs/promises";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {parseExperimentSpec} from "../../../../client/experiments/experimentFile.ts";
import {isPromptfooPick, promptfooExperiment} from "./promptfooFiles.ts";

const fixtures = fileURLToPath(new URL("../../../../test/fixtures/promptfoo/", import.meta.url));
const pick = async (folder: string, names: string[]) => Promise.all(names.map(async (name) => new File([await readFile(path.join(fixtures, folder, name))], name)));

test("a picked config and its files: the experiment, on the local engine, with what was not imported", async () => {
    const files = await pick("simple-csv", ["promptfooconfig.yaml", "prompts.txt", "tests.csv"]);
    assert.equal(isPromptfooPick(files), true);
    const imported = await promptfooExperiment(files, 5);
    assert.ok(!("error" in imported), JSON.stringify(imported));
    const spec = parseExperimentSpec(imported.text);
    assert.deepEqual(spec.variants.map((variant) => [variant.name, variant.connection, variant.model]), [["prompts.txt #2", {profile: "local"}, undefined]]);
    assert.equal("rows" in spec.dataset && spec.dataset.rows.length, 4);
    assert.equal(spec.createdAt, 5);
    assert.match(imported.lines[0], /^not imported: promptfooconfig\.yaml:3: prompts\[0\]: this prompt is not imported: "\{\{ \(style_config \| load\)\.tone \}\}" is a Nunjucks expression/);
});

test("a file the config names that was not picked: said by name, with what was found before", async () => {
    const files = await pick("simple-csv", ["promptfooconfig.yaml", "prompts.txt"]);
    const imported = await promptfooExperiment(files, 0);
    assert.ok("error" in imported);
    assert.match(imported.error, /promptfooconfig\.yaml:6: tests: no such file: tests\.csv \(pick it together with promptfooconfig\.yaml\)$/);
    assert.equal(isPromptfooPick(await pick("simple-csv", ["tests.csv"])), false);
});
