// The desktop app as electron-builder packs it (`npm run dist` without the installers): the real electron-builder
// run on this checkout with electron-builder.yml as it is, and a stand-in Electron binary (its download is not
// possible here). Then what only Electron would show, checked without it:
// - the packed list: product code only (bundles, built renderer, icon, built-in model), no sources, tests, fixtures,
//   test doubles or development packages;
// - every native addon packed loads in Electron: Node-API, or built for Electron's own ABI, and unpacked from app.asar;
// - the packed engine, run from the packed tree alone (app.asar and app.asar.unpacked), serves a chat and a decision
//   and opens its service database;
// - the checkout still works after a pack (no native module rebuilt in place);
// - the `files` patterns keep the binaries of the package's own platform and CPU architecture and nothing else, for
//   mac, win and linux on each architecture;
// - the .deb declares what Electron and the vision addon need; the AppImage is built on the static runtime.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import {existsSync, readFileSync} from "node:fs";
import {chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile} from "node:fs/promises";
import {createRequire} from "node:module";
import {tmpdir} from "node:os";
import path from "node:path";
import {promisify} from "node:util";
import {extractAll, listPackage} from "@electron/asar";
import {parse as parseYaml} from "yaml";
import {bundleElectron} from "../../electron/build/bundle.ts";
import {ensureRendererBuilt} from "../ui/utils/ensureRendererBuilt.ts";
import {repoRoot, startProcess} from "../ui/utils/startProcess.ts";
import packageJson from "../../package.json" with {type: "json"};

// electron-builder's own internals (app-builder-lib), so the patterns and defaults checked are the ones it applies.
const builderRequire = createRequire(path.join(repoRoot, "node_modules/electron-builder/package.json"));
type Filter = (file: string, stat: {isDirectory(): boolean, moduleFullFilePath: string}) => boolean;
const {getNodeModuleFileMatcher} = builderRequire("app-builder-lib/out/fileMatcher.js") as {
    getNodeModuleFileMatcher(appDir: string, destination: string, macros: (pattern: string) => string, platformOptions: object, packager: object): {createFilter(): Filter}
};
const {expandMacro} = builderRequire("app-builder-lib/out/util/macroExpander.js") as {
    expandMacro(pattern: string, arch: string, appInfo: object, extra: Record<string, string>): string
};
const {default: FpmTarget} = builderRequire("app-builder-lib/out/targets/FpmTarget.js") as {default: {prototype: {getDefaultDepends(target: string): string[]}}};

let workDir: string;
let packed: string[];
let unpacked: string[];
let resources: string;

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
    // electron-builder.yml as `npm run dist` reads it: its npmRebuild setting included.
    await promisify(execFile)(process.execPath, [path.join(repoRoot, "node_modules/electron-builder/cli.js"), "--linux", "dir",
        `--config.electronDist=${electronDist}`, `--config.directories.output=${output}`, "--publish", "never"],
    {cwd: repoRoot, timeout: 540_000, maxBuffer: 64 * 1024 * 1024});
    resources = path.join(output, "linux-unpacked", "resources");
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

/** This machine's architecture as electron-builder and the binaries' folders name it (Node's `arm` is `armv7l`). */
const hostArch = process.arch === "arm" ? "armv7l" : process.arch;

/** Whether `name` (`linux-x64`, `linux-x64-cuda`) is a binary folder or package of `platform` on `arch`. */
function isFor(name: string, platform: string, arch: string): boolean {
    return name === `${platform}-${arch}` || name.startsWith(`${platform}-${arch}-`);
}

test("only production dependencies are packed, with this platform's and this architecture's native binaries only", () => {
    const packages = new Set(packed.map((entry) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(entry)?.[1]).filter((name) => name != null));
    // Type packages may come in as other packages' dependencies; every other development package must stay out.
    for (const name of Object.keys(packageJson.devDependencies).filter((dep) => !dep.startsWith("@types/"))) assert.ok(!packages.has(name), `${name} is a development dependency`);
    for (const name of Object.keys(packageJson.dependencies).filter((dep) => !dep.startsWith("@types/")))
        assert.ok(packages.has(name), `${name} is packed`);
    const llamaBinaries = [...packages].filter((name) => name.startsWith("@node-llama-cpp/"));
    assert.ok(llamaBinaries.length > 0);
    assert.deepEqual(llamaBinaries.filter((name) => !isFor(name.slice("@node-llama-cpp/".length), "linux", hostArch)), [],
        "no other platform's or architecture's (npm installs linux-arm64 and linux-armv7l on x64 too)");
    const visionBinaries = [...packages].filter((name) => name.startsWith("@fugood/node-llama-"));
    assert.ok(visionBinaries.includes("@fugood/node-llama-linux-x64") || process.arch !== "x64", "the vision addon for this platform is packed");
    assert.deepEqual(visionBinaries.filter((name) => !isFor(name.slice("@fugood/node-llama-".length), "linux", hostArch)), [],
        "no WebAssembly build, no other platform's or architecture's");
    const sqlitePrebuilds = packed.filter((entry) => entry.startsWith("/node_modules/@photostructure/sqlite/prebuilds/") && entry.endsWith(".node"));
    assert.ok(sqlitePrebuilds.length > 0);
    assert.deepEqual(sqlitePrebuilds.filter((entry) => !entry.startsWith(`/node_modules/@photostructure/sqlite/prebuilds/linux-${hostArch}/`)), []);
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

/** Electron's Node ABI (`process.versions.modules` in Electron), as the installed electron package records it. */
function electronAbi(): number {
    return Number(readFileSync(path.join(repoRoot, "node_modules/electron/abi_version"), "utf8").trim());
}

/**
 * How a native addon registers itself, read from the names it exports (ELF, Mach-O and PE alike keep them as
 * NUL-terminated strings): Node-API's `napi_register_module_v1`, or `node_register_module_v<ABI>` for one Node ABI.
 */
function addonRegistration(binary: Buffer): {napi: boolean, abis: number[]} {
    const text = binary.toString("latin1");
    const abis = [...text.matchAll(/node_register_module_v(\d+)\0/g)].map((match) => Number(match[1]));
    return {napi: /napi_register_module_v1\0/.test(text), abis: [...new Set(abis)]};
}

test("every native addon in the package loads in Electron: Node-API or Electron's ABI, and outside app.asar", async () => {
    const abi = electronAbi();
    assert.ok(abi >= 145, `Electron's ABI is read (${abi})`);
    const all = [...new Set([...packed, ...unpacked])];
    // Files only: `@fugood/llama.node` is a folder.
    const addons = all.filter((entry) => entry.endsWith(".node") && !all.some((other) => other.startsWith(`${entry}/`)));
    assert.ok(addons.some((entry) => entry.includes("/@photostructure/sqlite/")), "the SQLite binding is among them");
    assert.ok(addons.some((entry) => entry.includes("/@node-llama-cpp/")), "node-llama-cpp's binding is among them");
    const wrong: string[] = [];
    for (const addon of addons) {
        // A native library can be loaded by the OS only from a real file.
        assert.ok(unpacked.includes(addon), `${addon} is unpacked from app.asar`);
        const {napi, abis} = addonRegistration(await readFile(path.join(resources, "app.asar.unpacked", addon)));
        if (!napi && !abis.includes(abi)) wrong.push(`${addon}: ${abis.length > 0 ? `built for Node ABI ${abis.join(", ")}` : "no Node module registration"}`);
    }
    assert.deepEqual(wrong, [], `Electron ${abi} cannot load these`);
    // The check itself tells the two kinds apart: an addon built for Node 20 alone is refused.
    assert.deepEqual(addonRegistration(Buffer.from("\0node_register_module_v115\0")), {napi: false, abis: [115]});
});

test("the packed engine, run from the packed tree alone, serves a chat and a decision and opens its service database", {timeout: 120_000}, async () => {
    // app.asar extracted (its unpacked files taken from app.asar.unpacked), outside the checkout: no module can be
    // found in the checkout's node_modules.
    const tree = path.join(workDir, "packed-tree");
    extractAll(path.join(resources, "app.asar"), tree);
    const engine = await startProcess("", ["serve", "--port", "0", "--threads", "1", "--gpu", "off", "--data-dir", path.join(workDir, "engine-data")],
        /listening on (http:\/\/\S+)/, {
            command: [process.execPath, path.join(tree, "out/engine/cli.mjs")],
            cwd: tree,
            env: {SVC_STUDIO_MODELS_DIR: path.join(workDir, "empty-library"), SVC_MODEL: "", NODE_PATH: ""}
        });
    try {
        const url = engine.match[1];
        assert.match(engine.output(), /service database .*service\.db/);
        assert.match(engine.output(), new RegExp(`${tree.replaceAll("/", "\\/")}\\/resources\\/models\\/stories260K\\.gguf`), "the built-in model from the packed tree");
        const post = (route: string, body: unknown) => fetch(`${url}${route}`, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
        const chat = await post("/svc-1/v1/chat/completions", {model: "svc-1", messages: [{role: "user", content: "Tell me a story."}], max_tokens: 8, temperature: 0});
        assert.equal(chat.status, 200);
        assert.ok(((await chat.json()) as {usage: {completion_tokens: number}}).usage.completion_tokens > 0);
        const decision = await post("/svc-1-decision/v1/decisions", {model: "svc-1-decision", input: "The ball is red.", questions: [{type: "predicate", instructions: "Is the ball red?"}]});
        assert.equal(decision.status, 200);
        const probability = ((await decision.json()) as {answers: Array<{probability: number}>}).answers[0].probability;
        assert.ok(probability >= 0 && probability <= 1);
    } finally {
        await engine.stop();
    }
});

test("the checkout still works after a pack: its SQLite binding loads on Node and `npm run serve` answers", {timeout: 120_000}, async () => {
    const sqlite = createRequire(path.join(repoRoot, "package.json"))("@photostructure/sqlite") as typeof import("@photostructure/sqlite");
    const db = new sqlite.DatabaseSync(":memory:");
    assert.deepEqual({...db.prepare("SELECT 1 + 1 AS two").get()}, {two: 2});
    db.close();
    const serve = await startProcess("", ["run", "serve", "--", "--port", "0", "--threads", "1", "--gpu", "off", "--data-dir", path.join(workDir, "checkout-data")],
        /listening on (http:\/\/\S+)/, {command: ["npm"], env: {SVC_STUDIO_MODELS_DIR: path.join(workDir, "empty-library"), SVC_MODEL: ""}});
    try {
        assert.equal((await fetch(`${serve.match[1]}/health`)).status, 200);
    } finally {
        await serve.stop();
    }
});

type BuilderConfig = Record<string, unknown> & {mac?: object, win?: object, linux?: object};
const builderConfig = parseYaml(readFileSync(path.join(repoRoot, "electron-builder.yml"), "utf8")) as BuilderConfig;

const nodePlatform = {mac: "darwin", win: "win32", linux: "linux"} as const;

/**
 * Of `files` (paths below the app folder), those electron-builder's own node_modules filter keeps for a platform's
 * package on `arch`, built on that platform (beforePack refuses other builds): electron-builder expands `${platform}` to
 * the building machine's process.platform, which this stands in for, and `${arch}` to the package's architecture.
 */
function keptFor(platform: "mac" | "win" | "linux", arch: string, files: string[]): string[] {
    const macros = (pattern: string) => expandMacro(pattern.replaceAll("${platform}", nodePlatform[platform]), arch, {}, {os: platform});
    const packager = {config: builderConfig, debugLogger: {isEnabled: false}};
    const filter = getNodeModuleFileMatcher(repoRoot, path.join(workDir, "app"), macros, builderConfig[platform] ?? {}, packager).createFilter();
    return files.filter((file) => filter(path.join(repoRoot, file), {isDirectory: () => false, moduleFullFilePath: file}));
}

function optionalPackages(name: string): string[] {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, "node_modules", name, "package.json"), "utf8")) as {optionalDependencies: Record<string, string>};
    return Object.keys(manifest.optionalDependencies);
}

test("the files patterns keep the native binaries of the package's own platform and architecture and nothing else", () => {
    // The packages' real names, as npm would install them on each platform, and the SQLite binding's prebuilt folders.
    const llamaCpp = optionalPackages("node-llama-cpp").map((name) => `node_modules/${name}/bins/addon.node`);
    const vision = optionalPackages("@fugood/llama.node").map((name) => `node_modules/${name}/index.node`);
    const sqlite = ["darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "win32-arm64", "win32-x64"]
        .map((folder) => `node_modules/@photostructure/sqlite/prebuilds/${folder}/@photostructure+sqlite.glibc.node`);
    assert.ok(vision.includes("node_modules/@fugood/node-llama-wasm/index.node") && vision.some((file) => file.includes("-darwin-")));
    const all = [...llamaCpp, ...vision, ...sqlite];
    // The folder or package name of a binary (`linux-x64-cuda`), after its prefix.
    const binaryName = (file: string) => /\/(?:@node-llama-cpp\/|@fugood\/node-llama-|prebuilds\/)([^/]+)\//.exec(file)![1];
    for (const platform of ["mac", "win", "linux"] as const) {
        for (const arch of ["x64", "arm64"]) {
            const own = (file: string) => isFor(binaryName(file), file.includes("/@node-llama-cpp/") ? platform : nodePlatform[platform], arch);
            const kept = keptFor(platform, arch, all);
            assert.deepEqual(kept, all.filter(own), `${platform} ${arch} keeps its own binaries, and only those`);
            assert.ok(kept.some((file) => file.includes("/@fugood/")), `${platform} ${arch} keeps a vision binary`);
            assert.ok(kept.some((file) => file.includes("/@node-llama-cpp/")), `${platform} ${arch} keeps an engine binary`);
            assert.ok(kept.some((file) => file.includes("/prebuilds/")), `${platform} ${arch} keeps a SQLite binary`);
            // Packages without native code are untouched.
            assert.deepEqual(keptFor(platform, arch, ["node_modules/ajv/package.json", "node_modules/@fugood/llama.node/lib/index.js"]),
                ["node_modules/ajv/package.json", "node_modules/@fugood/llama.node/lib/index.js"]);
        }
    }
    // The x64 Linux package: linux-x64 and its GPU variants, not linux-arm64, linux-armv7l or linux-riscv64.
    assert.deepEqual(keptFor("linux", "x64", llamaCpp).map(binaryName), ["linux-x64", "linux-x64-cuda", "linux-x64-cuda-ext", "linux-x64-vulkan"]);
});

test("the .deb depends on what Electron needs (electron-builder's own list) and on libgomp1 for the vision addon", () => {
    const defaults = FpmTarget.prototype.getDefaultDepends("deb");
    assert.ok(defaults.includes("libgtk-3-0"), `electron-builder's defaults are read: ${defaults.join(", ")}`);
    const depends = (builderConfig.deb as {depends: string[]}).depends;
    assert.deepEqual(defaults.filter((name) => !depends.includes(name)), [], "none of electron-builder's defaults is dropped");
    assert.ok(depends.includes("libgomp1"));
});

test("the AppImage is built on the static runtime (no libfuse2), whose AppRun itself turns Chromium's sandbox off where user namespaces are refused", () => {
    // electron-builder builds the AppImage on the legacy FUSE2 runtime for toolset "0.0.0" or none, else on the static
    // runtime of the toolsets it knows (their checksums are pinned in app-builder-lib).
    const {appimageChecksums} = builderRequire("app-builder-lib/out/toolsets/linux.js") as {appimageChecksums: Record<string, object>};
    const toolset = (builderConfig.toolsets as {appimage?: string} | undefined)?.appimage;
    assert.ok(toolset != null && toolset !== "0.0.0", `toolsets.appimage is ${toolset}: the legacy FUSE2 runtime`);
    assert.ok(Object.hasOwn(appimageChecksums, toolset), `electron-builder knows toolset ${toolset}`);
    // What docs/troubleshooting.md says of the AppImage on Ubuntu 23.10 and later (AppArmor refuses unprivileged user
    // namespaces): its AppRun probes them and adds --no-sandbox, so the app starts without Chromium's sandbox.
    const {generateAppRunScript} = builderRequire("app-builder-lib/out/targets/appimage/appImageUtil.js") as {generateAppRunScript(config: object): string};
    const appRun = generateAppRunScript({DesktopFileName: "svc-studio.desktop", ExecutableName: "svc-studio", ProductName: "Svc Studio",
        ProductFilename: "Svc Studio", ResourceName: "appimagekit-svc-studio"});
    assert.match(appRun, /if \[ \$HAVE_NO_SANDBOX -eq 0 \] && ! unshare -Ur true 2>\/dev\/null ; then\n\s+NO_SANDBOX=\(--no-sandbox\)/);
});

test("the pack does not rebuild native modules, and a package is built on the platform and architecture it is for", async () => {
    assert.equal(builderConfig.npmRebuild, false);
    const {default: beforePack} = builderRequire(path.join(repoRoot, String(builderConfig.beforePack))) as {default: (context: {electronPlatformName: string, arch: number}) => Promise<void>};
    const {Arch} = builderRequire("builder-util") as {Arch: Record<string, number>};
    await beforePack({electronPlatformName: process.platform, arch: Arch[hostArch]});
    const other = process.platform === "darwin" ? "win32" : "darwin";
    await assert.rejects(beforePack({electronPlatformName: other, arch: Arch[hostArch]}), new RegExp(`must be built on ${other}`));
    const otherArch = hostArch === "arm64" ? "x64" : "arm64";
    await assert.rejects(beforePack({electronPlatformName: process.platform, arch: Arch[otherArch]}), new RegExp(`packages for ${otherArch} must be built on a ${otherArch} machine`));
    await assert.rejects(beforePack({electronPlatformName: process.platform, arch: Arch.universal}), /no universal package/);
});
