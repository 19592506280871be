import assert from "node:assert/strict";
import {copyFile, mkdir, mkdtemp, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {ensureTinyGguf, writeTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {ModelLibrary, ModelLibraryError, modelsDir} from "./ModelLibrary.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-library-"));
after(() => rm(root, {recursive: true, force: true}));

test("a missing folder is an empty library with no default", async () => {
    const listing = await new ModelLibrary(path.join(root, "nothing-here")).list();
    assert.deepEqual(listing.models, []);
    assert.equal(listing.defaultId, undefined);
    assert.deepEqual(listing.roles, {});
});

test("the listing: GGUF files with their header facts, unreadable ones with the reason, partial downloads", async () => {
    const dir = path.join(root, "listing");
    await mkdir(dir);
    await copyFile(await ensureTinyGguf(), path.join(dir, "chat.gguf"));
    await writeTinyGguf(path.join(dir, "thinker.gguf"), {chatTemplate: "chatml-thinking"});
    await writeFile(path.join(dir, "broken.gguf"), "GGUF but nothing after it");
    await writeFile(path.join(dir, "big.gguf.part"), Buffer.alloc(1234));
    await writeFile(path.join(dir, "big.gguf.part.json"), JSON.stringify({url: "https://example.com/big.gguf"}));
    await writeFile(path.join(dir, "notes.txt"), "not a model");
    const listing = await new ModelLibrary(dir).list();

    assert.deepEqual(listing.models.map((model) => model.id), ["broken.gguf", "chat.gguf", "thinker.gguf"]);
    const [broken, chat, thinker] = listing.models;
    assert.equal(broken.info, undefined);
    assert.match(broken.error ?? "", /damaged|GGUF/);
    assert.equal(chat.info?.chatWrapper, "ChatML");
    assert.equal(chat.info?.canThink, false);
    assert.equal(thinker.info?.canThink, true);
    assert.equal(chat.sizeBytes, (await readFile(path.join(dir, "chat.gguf"))).length);
    assert.deepEqual(listing.partial, [{fileName: "big.gguf", receivedBytes: 1234, url: "https://example.com/big.gguf"}]);
    // Nothing chosen yet: the first readable model by name is the default, and says it was not chosen.
    assert.equal(listing.defaultId, "chat.gguf");
    assert.equal(listing.defaultIsExplicit, false);
    assert.deepEqual(chat.roles, ["svc-1"]);
});

test("default model and roles are stored in library.json and follow the files", async () => {
    const dir = path.join(root, "roles");
    await mkdir(dir);
    await copyFile(await ensureTinyGguf(), path.join(dir, "a.gguf"));
    await writeTinyGguf(path.join(dir, "b.gguf"), {chatTemplate: "chatml-thinking"});
    const library = new ModelLibrary(dir);

    await library.adopt("b.gguf");
    assert.equal((await library.defaultModel())?.id, "b.gguf", "adopting into a library without a chosen default makes it the default");
    await library.adopt("a.gguf");
    assert.equal((await library.defaultModel())?.id, "b.gguf", "a chosen default is kept");
    await library.setDefault("a.gguf");
    await library.setRole("svc-1-decision", "b.gguf");
    await library.setRole("svc-1-reasoning", "b.gguf");

    const stored = JSON.parse(await readFile(path.join(dir, "library.json"), "utf8"));
    assert.equal(stored.defaultModel, "a.gguf");
    assert.deepEqual(stored.roles, {"svc-1-decision": "b.gguf", "svc-1-reasoning": "b.gguf"});
    // A second instance (another process) reads the same choices.
    const listing = await new ModelLibrary(dir).list();
    assert.equal(listing.defaultId, "a.gguf");
    assert.equal(listing.defaultIsExplicit, true);
    assert.deepEqual(listing.roles, {"svc-1": "a.gguf", "svc-1-reasoning": "b.gguf", "svc-1-decision": "b.gguf"});
    assert.deepEqual(listing.models.find((model) => model.id === "b.gguf")?.roles, ["svc-1-reasoning", "svc-1-decision"]);
    assert.equal((await library.modelForRole("svc-1-decision"))?.path, path.join(dir, "b.gguf"));

    // Assigning svc-1 is choosing the default; removing a file forgets its roles and the default falls back.
    await library.setRole("svc-1", "b.gguf");
    assert.equal((await library.defaultModel())?.id, "b.gguf");
    await library.remove("b.gguf");
    const after = await library.list();
    assert.deepEqual(after.models.map((model) => model.id), ["a.gguf"]);
    assert.equal(after.defaultId, "a.gguf");
    assert.equal(after.defaultIsExplicit, false);
    assert.deepEqual(after.roles, {"svc-1": "a.gguf"});
});

test("unknown models, unsafe ids and unknown roles are refused", async () => {
    const library = new ModelLibrary(path.join(root, "roles"));
    const code = (expected: string) => (error: unknown) => error instanceof ModelLibraryError && error.code === expected;
    await assert.rejects(library.setDefault("missing.gguf"), code("model_not_found"));
    await assert.rejects(library.setDefault("../roles/a.gguf"), code("invalid_model_id"));
    await assert.rejects(library.setDefault("library.json"), code("invalid_model_id"));
    await assert.rejects(library.setRole("svc-2", "a.gguf"), code("invalid_model_id"));
});

test("the library folder: SVC_STUDIO_MODELS_DIR, else the platform's user data folder", () => {
    assert.equal(modelsDir({SVC_STUDIO_MODELS_DIR: "/data/models"}, "linux", "/home/u"), "/data/models");
    assert.equal(modelsDir({}, "linux", "/home/u"), "/home/u/.local/share/svc-studio/models");
    assert.equal(modelsDir({XDG_DATA_HOME: "/xdg"}, "linux", "/home/u"), "/xdg/svc-studio/models");
    assert.equal(modelsDir({}, "darwin", "/Users/u"), "/Users/u/Library/Application Support/svc-studio/models");
});
