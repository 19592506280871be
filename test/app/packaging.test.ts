// The desktop app as electron-builder packs it (`npm run dist` without the installers): the real electron-builder
// run on this checkout, with a stand-in Electron binary (its download is not possible here), then the app.asar
// listing checked: product code only (bundles, built renderer, icon, built-in model), no TypeScript sources, tests,
// fixtures or test doubles, and no development packages.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import {existsSync} from "node:fs";
import {chmod, mkdir, mkdtemp, readdir, rm, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {promisify} from "node:util";
import {listPackage} from "@electron/asar";
import {bundleElectron} from "../../electron/build/bundle.ts";
import {ensureRendererBuilt} from "../ui/utils/ensureRendererBuilt.ts";
import {repoRoot, startProcess} from "../ui/utils/startProcess.ts";
import packageJson from "../../package.json" with {type: "json"};

let workDir: string;
let packed: string[];
let unpacked: string[];

async function listFiles(dir: string, prefix = ""): Promise<string[]> {
    const entries = await readdir(dir, {withFileTypes: true}).catch(() => []);
    const nested = await Promise.all(entries.map((entry) => entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`]));
    return nested.flat();
}

before(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "svc-pack-"));
    ensureRendererBuilt();
    await bundleElectron();
    const electronDist = path.join(workDir, "electron-dist");
    await mkdir(electronDist);
    await writeFile(path.join(electronDist, "electron"), "#!/bin/sh\n");
    await chmod(path.join(electronDist, "electron"), 0o755);
    const output = path.join(workDir, "out");
    await promisify(execFile)(process.execPath, [path.join(repoRoot, "node_modules/electron-builder/cli.js"), "--linux", "dir",
        `--config.electronDist=${electronDist}`, `--config.directories.output=${output}`, "--config.npmRebuild=false", "--publish", "never"],
    {cwd: repoRoot, timeout: 540_000, maxBuffer: 64 * 1024 * 1024});
    const resources = path.join(output, "linux-unpacked", "resources");
    packed = listPackage(path.join(resources, "app.asar"), {isPack: false}).map((entry) => entry.split(path.sep).join("/"));
    unpacked = await listFiles(path.join(resources, "app.asar.unpacked"));
}, {timeout: 600_000});
after(async () => {
    await rm(workDir, {recursive: true, force: true});
});

test("the app's own files are the bundles, the built renderer, the icon and the built-in model", () => {
    const own = packed.filter((entry) => !entry.startsWith("/node_modules"));
    const files = own.filter((entry) => /\.[a-z0-9]+$/i.test(entry));
    const allowed = [/^\/package\.json$/, /^\/out\/electron\/(main\.mjs|preload\.cjs)$/, /^\/out\/engine\/cli\.mjs$/, /^\/renderer\/dist\//,
        /^\/resources\/icon\.png$/, /^\/resources\/models\/(README\.md|LICENSE|stories260K\.gguf)$/];
    const stray = files.filter((entry) => !allowed.some((pattern) => pattern.test(entry)));
    assert.deepEqual(stray, [], "only product files are packed");
    for (const required of ["/out/electron/main.mjs", "/out/electron/preload.cjs", "/out/engine/cli.mjs", "/renderer/dist/index.html", "/resources/icon.png"])
        assert.ok(files.includes(required), `${required} is packed`);
    // llama.cpp opens the built-in model with its own file I/O, which cannot read inside app.asar.
    assert.ok(unpacked.includes("/resources/models/stories260K.gguf"), "the built-in model is unpacked");
});

test("nothing of the tests, fixtures, test doubles or TypeScript sources is packed", () => {
    const leaks = packed.filter((entry) => !entry.startsWith("/node_modules") && (/\.test\.|\/test\/|\/testing\/|fixture|\.tsx?$|\.map$/.test(entry)));
    assert.deepEqual(leaks, []);
});

test("only production dependencies are packed, with this platform's llama.cpp binaries only", () => {
    const packages = new Set(packed.map((entry) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(entry)?.[1]).filter((name) => name != null));
    // Type packages may come in as other packages' dependencies; every other development package must stay out.
    for (const name of Object.keys(packageJson.devDependencies).filter((dep) => !dep.startsWith("@types/"))) assert.ok(!packages.has(name), `${name} is a development dependency`);
    for (const name of Object.keys(packageJson.dependencies).filter((dep) => !dep.startsWith("@types/")))
        assert.ok(packages.has(name), `${name} is packed`);
    const llamaBinaries = [...packages].filter((name) => name.startsWith("@node-llama-cpp/"));
    assert.ok(llamaBinaries.length > 0);
    assert.deepEqual(llamaBinaries.filter((name) => !name.startsWith("@node-llama-cpp/linux-")), []);
});

test("node-llama-cpp's llama.cpp source is not packed, and of a local build of its addon only what loads", () => {
    const all = [...packed, ...unpacked];
    assert.deepEqual(all.filter((entry) => entry.includes("/node-llama-cpp/llama/llama.cpp/")), []);
    const local = all.filter((entry) => entry.includes("/node-llama-cpp/llama/localBuilds/"));
    assert.deepEqual(local.filter((entry) => !/\/localBuilds\/[^/]+(\/Release(\/.*)?|\/buildDone\.status)?$/.test(entry)), []);
    // .ci/run builds the engine before the tests, so there it is packed.
    if (existsSync(path.join(repoRoot, "node_modules/node-llama-cpp/llama/localBuilds", `${process.platform}-${process.arch}`, "Release/llama-addon.node")))
        assert.ok(local.some((entry) => entry.endsWith("/Release/llama-addon.node")), "the local build's addon is packed");
});

test("the bundled engine CLI runs on plain Node, without tsx, and serves the built-in model", async () => {
    const engine = await startProcess("", ["serve", "--port", "0", "--threads", "1", "--gpu", "off"], /listening on (http:\/\/\S+)/, {
        command: [process.execPath, path.join(repoRoot, "out/engine/cli.mjs")],
        env: {SVC_STUDIO_MODELS_DIR: path.join(workDir, "empty-library"), SVC_MODEL: ""}
    });
    try {
        const reply = await fetch(`${engine.match[1]}/svc-1/v1/completions`, {method: "POST", headers: {"content-type": "application/json"},
            body: JSON.stringify({model: "svc-1", prompt: "Once upon a time", max_tokens: 8, temperature: 0})});
        assert.equal(reply.status, 200);
        assert.ok(((await reply.json()) as {usage: {completion_tokens: number}}).usage.completion_tokens > 0);
        assert.match(engine.output(), /resources\/models\/stories260K\.gguf/);
    } finally {
        await engine.stop();
    }
});
