import assert from "node:assert/strict";
import {copyFile, mkdir, mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {ensureTinyVisionGguf} from "../../test/fixtures/gguf/ensureTinyVisionGguf.ts";
import {ModelLibrary} from "./ModelLibrary.ts";
import {findProjectorFor, pairingStem, pairProjectors, projectorFileName} from "./projectors.ts";
import {catalog} from "./catalog.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-projectors-"));
after(() => rm(root, {recursive: true, force: true}));

test("a model and its projector share a stem: mmproj word and quantisation tags set aside", () => {
    assert.equal(pairingStem("SmolVLM-256M-Instruct-Q8_0.gguf"), "smolvlm-256m-instruct");
    assert.equal(pairingStem("mmproj-SmolVLM-256M-Instruct-Q8_0.gguf"), "smolvlm-256m-instruct");
    assert.equal(pairingStem("gemma-3-4b-it-Q4_K_M.gguf"), "gemma-3-4b-it");
    assert.equal(pairingStem("gemma-3-4b-it-mmproj-f16.gguf"), "gemma-3-4b-it");
    assert.equal(pairingStem("Qwen3-0.6B-Q8_0.gguf"), "qwen3-0.6b");
    assert.deepEqual([...pairProjectors(["gemma-3-4b-it-Q4_K_M.gguf", "other.gguf"], ["mmproj-model-f16.gguf", "mmproj-gemma-3-4b-it-F16.gguf"])],
        [["gemma-3-4b-it-Q4_K_M.gguf", "mmproj-gemma-3-4b-it-F16.gguf"]], "a generic projector name pairs with nothing");
});

test("the library lists projectors apart, each paired with its model, and recognises them by header, not name", async () => {
    const dir = path.join(root, "library");
    await mkdir(dir);
    const fixture = await ensureTinyVisionGguf();
    await copyFile(fixture.modelPath, path.join(dir, "seer-Q8_0.gguf"));
    await copyFile(fixture.mmprojPath, path.join(dir, "mmproj-seer-F16.gguf"));
    await copyFile(fixture.mmprojPath, path.join(dir, "projector-without-the-word.gguf"));
    await copyFile(fixture.modelPath, path.join(dir, "blind.gguf"));
    const listing = await new ModelLibrary(dir).list();
    assert.deepEqual(listing.models.map((model) => [model.id, model.mmproj]), [["blind.gguf", undefined], ["seer-Q8_0.gguf", "mmproj-seer-F16.gguf"]]);
    assert.deepEqual(listing.projectors?.map((projector) => [projector.id, projector.pairedWith]),
        [["mmproj-seer-F16.gguf", "seer-Q8_0.gguf"], ["projector-without-the-word.gguf", undefined]]);
    assert.equal(listing.defaultId, "blind.gguf", "a projector is never the default model");
});

test("serve --model finds the projector beside the model by name, and only one whose header is a projector's", async () => {
    const fixture = await ensureTinyVisionGguf();
    assert.equal(await findProjectorFor(fixture.modelPath), fixture.mmprojPath);
    const dir = path.join(root, "fake");
    await mkdir(dir);
    await copyFile(fixture.modelPath, path.join(dir, "m.gguf"));
    await copyFile(fixture.modelPath, path.join(dir, "mmproj-m.gguf"));
    assert.equal(await findProjectorFor(path.join(dir, "m.gguf")), undefined, "a text model named mmproj-... is no projector");
    // As the library pairs them: a projector whose name lacks the word, with the model's stem and a quantisation tag.
    const plain = path.join(root, "plain");
    await mkdir(plain);
    await copyFile(fixture.modelPath, path.join(plain, "seer.gguf"));
    await copyFile(fixture.mmprojPath, path.join(plain, "seer-f16.gguf"));
    assert.equal(await findProjectorFor(path.join(plain, "seer.gguf")), path.join(plain, "seer-f16.gguf"));
    assert.equal((await new ModelLibrary(plain).list()).models.find((model) => model.id === "seer.gguf")?.mmproj, "seer-f16.gguf");
});

test("catalog vision models download a projector saved under a name that pairs it", () => {
    const vision = catalog.filter((model) => model.projector != null);
    assert.ok(vision.length >= 2);
    for (const model of vision) {
        const modelFile = model.uri.split("/").at(-1)!;
        assert.equal(pairingStem(model.projector!.fileName), pairingStem(modelFile), model.id);
        assert.match(model.projector!.uri, /^hf:[^/]+\/[^/]+\/mmproj-[^/]+\.gguf$/);
        assert.match(model.projector!.sizeLabel, /approximate/);
    }
});

test("a catalog projector saved for a renamed model pairs with that model (pull --name, the app's download)", () => {
    const catalogName = "mmproj-model-f16.gguf";
    assert.equal(projectorFileName(catalogName), catalogName);
    const saved = projectorFileName(catalogName, "my-gemma.gguf");
    assert.deepEqual([...pairProjectors(["my-gemma.gguf", "other.gguf"], [saved])], [["my-gemma.gguf", saved]]);
});
