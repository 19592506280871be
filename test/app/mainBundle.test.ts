// The Electron main process as bundled (electron/build/bundle.ts) keeps native addons out of its start-up: no static
// import of one, and the app's database (electron/appData/AppDatabase.ts) loads its SQLite binding with a dynamic import
// at the first app-data call. Then the gateway, bundled the same way and run by Node outside the checkout's TypeScript,
// saves and reads documents through that binding.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {spawn, type ChildProcessWithoutNullStreams} from "node:child_process";
import {mkdtemp, readdir, rm, symlink} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {createInterface} from "node:readline";
import {build, type Metafile} from "esbuild";
import {bundleOptions, nativePackagesImported} from "../../electron/build/bundle.ts";
import {repoRoot} from "../ui/utils/startProcess.ts";

let workDir: string;
let mainMetafile: Metafile;
let gatewayMetafile: Metafile;
let gatewayBundle: string;

before(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), "svc-main-bundle-"));
    // Outside the checkout, with its node_modules beside: npm packages resolve as they do next to the packed bundles.
    await symlink(path.join(repoRoot, "node_modules"), path.join(workDir, "node_modules"), "dir");
    mainMetafile = (await build(bundleOptions("electron/main.ts", path.join(workDir, "out/electron/main.mjs"), "esm"))).metafile;
    gatewayBundle = path.join(workDir, "out/electron/bundledGateway.mjs");
    gatewayMetafile = (await build(bundleOptions("test/support/appData/bundledGateway.ts", gatewayBundle, "esm"))).metafile;
});
after(async () => {
    await rm(workDir, {recursive: true, force: true});
});

/** How each bundle imports a package: `import-statement` (at start-up) or `dynamic-import` (when first called). */
function importsOf(metafile: Metafile, name: string): string[] {
    return Object.values(metafile.outputs).flatMap((output) => output.imports).filter((item) => item.path === name).map((item) => item.kind).sort();
}

test("the main bundle statically imports no native addon; it loads the SQLite binding with a dynamic import only", () => {
    assert.deepEqual(nativePackagesImported(mainMetafile), []);
    assert.deepEqual(importsOf(mainMetafile, "@photostructure/sqlite"), ["dynamic-import"]);
    assert.deepEqual(nativePackagesImported(gatewayMetafile), []);
    assert.deepEqual(importsOf(gatewayMetafile, "@photostructure/sqlite"), ["dynamic-import"]);
});

test("the bundled gateway starts with no addon loaded, then saves and reads documents in app.sqlite through the binding", {timeout: 60_000}, async () => {
    const dataDir = path.join(workDir, "app-data");
    // No page is loaded: the API is called with the token the gateway printed.
    const rendererDir = workDir;
    const preload = "data:text/javascript," + encodeURIComponent(
        "globalThis.loadedAddons=[];const open=process.dlopen;process.dlopen=function(module,file,...rest){globalThis.loadedAddons.push(file);return open.call(this,module,file,...rest);};");
    const child = spawn(process.execPath, ["--import", preload, gatewayBundle, dataDir, rendererDir], {cwd: workDir, stdio: ["pipe", "pipe", "pipe"]}) as ChildProcessWithoutNullStreams;
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => errors += chunk.toString());
    const lines = createInterface({input: child.stdout})[Symbol.asyncIterator]();
    const nextLine = async () => {
        const {value, done} = await lines.next();
        assert.ok(!done, `the bundled gateway exited: ${errors}`);
        return JSON.parse(value as string) as Record<string, unknown>;
    };
    const addons = async () => {
        child.stdin.write("addons\n");
        return ((await nextLine()).addons as string[]).map((file) => path.basename(file));
    };
    try {
        const {url, token} = await nextLine() as {url: string, token: string};
        assert.deepEqual(await addons(), [], "no native addon is loaded at start-up");
        const api = (route: string, init: RequestInit = {}) => fetch(`${url.replace(/\/$/, "")}/gateway/api${route}`, {...init, headers: {"x-gateway-token": token, "content-type": "application/json"}});
        const saved = await api("/app-data/documents/svc-studio-theme?revision=0", {method: "POST", body: JSON.stringify({state: {theme: "light"}})});
        assert.equal(saved.status, 200, await saved.clone().text());
        assert.deepEqual(await saved.json(), {saved: true, revision: 1});
        const stale = await api("/app-data/documents/svc-studio-theme?revision=0", {method: "POST", body: JSON.stringify({state: {theme: "dark"}})});
        assert.equal(stale.status, 409);
        assert.deepEqual(await (await api("/app-data/documents")).json(), {documents: {"svc-studio-theme": {state: {theme: "light"}}}, revisions: {"svc-studio-theme": 1}, problems: []});
        assert.ok((await addons()).some((file) => file.endsWith(".node")), "the binding is loaded by the first app-data call");
        assert.ok((await readdir(dataDir)).includes("app.sqlite"));
    } finally {
        child.stdin.end();
        await new Promise((resolve) => {
            if (child.exitCode !== null) resolve(null);
            else child.once("exit", resolve);
        });
    }
});
