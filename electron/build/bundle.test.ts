import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import type {Metafile} from "esbuild";
import {bundleElectron, nativePackagesImported} from "./bundle.ts";

/** A metafile whose one output imports `paths` as externals, as esbuild writes it. */
function importing(...paths: string[]): Metafile {
    return {inputs: {}, outputs: {"out/main.mjs": {bytes: 0, inputs: {}, exports: [], imports: paths.map((item) => ({path: item, kind: "import-statement", external: true}))}}};
}

/** The same, as `import()` calls. */
function importingLater(...paths: string[]): Metafile {
    return {inputs: {}, outputs: {"out/main.mjs": {bytes: 0, inputs: {}, exports: [], imports: paths.map((item) => ({path: item, kind: "dynamic-import", external: true}))}}};
}

test("a bundle importing a package with a native addon, itself or through a dependency, is found out", () => {
    assert.deepEqual(nativePackagesImported(importing("node:fs", "electron", "node-llama-cpp", "@photostructure/sqlite", "ajv")),
        ["@photostructure/sqlite", "node-llama-cpp"]);
    // @fugood/llama.node's own folder has no addon: its binaries come in its optional, per-platform packages.
    assert.deepEqual(nativePackagesImported(importing("@fugood/llama.node/lib/index.js")), ["@fugood/llama.node"]);
    assert.deepEqual(nativePackagesImported(importing("ajv", "re2js")), []);
    // Loaded when first used (the model library's header reads), where a failure is that call's error.
    assert.deepEqual(nativePackagesImported(importingLater("node-llama-cpp")), []);
});

test("the Electron main process bundle loads no native addon, so nothing native can keep its window from opening", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "svc-bundle-"));
    try {
        // bundleElectron itself refuses a main.mjs that imports one; the bundles must build.
        const written = await bundleElectron(outDir);
        assert.ok(written.some((file) => file.endsWith(path.join("out", "electron", "main.mjs"))));
    } finally {
        await rm(outDir, {recursive: true, force: true});
    }
});
