import {test} from "node:test";
import assert from "node:assert/strict";
import {existsSync} from "node:fs";
import path from "node:path";
import {getGrammarsFolder} from "../../node_modules/node-llama-cpp/dist/utils/getGrammarsFolder.js";

// A local build of the engine (npm run build:engine) restored from its cache has no llama.cpp source beside it, and
// the packed app leaves that source out: node-llama-cpp then found no grammars folder and JSON mode was a 500
// ("Grammars folder not found", seen in CI). patches/node-llama-cpp+*.patch falls back to the grammars it ships.
test("a local build finds a grammars folder with the JSON grammar, with or without the llama.cpp source", async () => {
    const folder = await getGrammarsFolder("localBuild") as string;
    assert.ok(existsSync(path.join(folder, "json.gbnf")), folder);
});
