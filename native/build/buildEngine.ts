import {createHash} from "node:crypto";
import {existsSync} from "node:fs";
import {cp, mkdir, readFile, rm, writeFile} from "node:fs/promises";
import {homedir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {runCommand} from "../../base/node/runCommand.ts";
import {applyLlamaCppPatch, readLlamaCppPatch} from "./llamaCppPatch.ts";

/**
 * `npm run build:engine`: compiles node-llama-cpp's addon, with the C++ part of patches/node-llama-cpp+*.patch, from
 * the llama.cpp source node-llama-cpp bundles (`llama/gitRelease.bundle`; no network) with patches/llama.cpp+<tag>.diff
 * applied (llamaCppPatch.ts). The engine then uses this local build instead of the prebuilt binary (node-llama-cpp
 * prefers a local build), and gets decodes that sample in the same worker job and short decodes run inline
 * (native/engine/inlineDecode.ts): stories260K went from 0.72 to 1.09 of llama-server's tokens/s at 1 client
 * (docs/performance.md, "The engine build"). Without it everything works as before.
 *
 * It is built as node-llama-cpp builds its own prebuilt binaries (`buildOptions`): one CPU library per CPU family,
 * chosen when it loads, so it is portable like them. Measured in process against a `GGML_NATIVE` build with OpenMP
 * (node-llama-cpp's default for a local build): the Qwen3-0.6B shape 13.4-14.0 against 12.4-12.9 tok/s (the prebuilt
 * binary 12.6-13.7), stories260K 315-320 against 322-325 us a token. About 7 minutes on 2 cores (seconds again with
 * ccache), cached per patch and options under `~/.cache/svc-studio/engine/<key>/` (or `$SVC_ENGINE_CACHE`), so a
 * fresh clone with the same patch copies it back. The desktop app packs it when the packaging machine built it
 * (electron-builder.yml), and node-llama-cpp's prebuilt binaries otherwise.
 */
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");
const llamaDir = path.join(root, "node_modules/node-llama-cpp/llama");
const cli = path.join(root, "node_modules/node-llama-cpp/dist/cli/cli.js");
/** The files a local build needs (node-llama-cpp's getLocalBuildBinaryPath); the rest of its folder is the cmake tree. */
const keptFiles = ["Release", "buildDone.status"];
const stampName = "svc-studio-engine.json";

/** CPU only, or node-llama-cpp's CUDA backend as well (`npm run build:engine -- --gpu cuda`). */
export type EngineGpu = false | "cuda";

/** `--gpu cuda` (or `--gpu off`) on a command line, else CPU: the engine build's and the benchmarks' flag. */
export function gpuArgument(argv = process.argv): EngineGpu {
    const index = argv.indexOf("--gpu");
    const value = index < 0 ? "off" : argv[index + 1];
    if (value === "off") return false;
    if (value === "cuda") return value;
    throw new Error(`--gpu must be off or cuda, not ${value}`);
}

/**
 * node-llama-cpp's options for its prebuilt binaries (compileLlamaCpp in CI mode), as its environment variables. A CUDA
 * build compiles ggml-cuda for llama.cpp's default list of 7 GPU architectures unless `CUDAARCHS` names them;
 * `CUDAARCHS=native` builds for this machine alone, its GPU and its CPU (no CPU variants, no loadable backends): a
 * fraction of the compile time.
 */
function buildOptions(gpu: EngineGpu): Record<string, string> {
    const architectures = gpu === "cuda" ? process.env.CUDAARCHS : undefined;
    const thisMachine = architectures === "native";
    const variants = !thisMachine && (process.arch === "x64" || (process.arch === "arm64" && ["linux", "darwin"].includes(process.platform)));
    return {
        NODE_LLAMA_CPP_CMAKE_OPTION_GGML_NATIVE: thisMachine ? "ON" : "OFF",
        NODE_LLAMA_CPP_CMAKE_OPTION_GGML_OPENMP: "OFF",
        // ggml refuses GGML_NATIVE with loadable backends (its CPU feature check needs the variants' definitions).
        ...thisMachine ? {} : {NODE_LLAMA_CPP_CMAKE_OPTION_GGML_BACKEND_DL: "ON"},
        ...variants ? {NODE_LLAMA_CPP_CMAKE_OPTION_GGML_CPU_ALL_VARIANTS: "ON"} : {},
        ...architectures != null && architectures !== "" ? {NODE_LLAMA_CPP_CMAKE_OPTION_CMAKE_CUDA_ARCHITECTURES: architectures} : {}
    };
}

async function patchFile(): Promise<string> {
    const version = (JSON.parse(await readFile(path.join(root, "node_modules/node-llama-cpp/package.json"), "utf8")) as {version: string}).version;
    return path.join(root, `patches/node-llama-cpp+${version}.patch`);
}

/**
 * What the build depends on: the patch's C++ part (a change to its JavaScript needs no rebuild), node-llama-cpp's
 * version (in the patch's name), the llama.cpp diff (patches/llama.cpp+<tag>.diff), the build options, the GPU
 * backend, the platform and the CPU architecture.
 */
async function engineBuildKey(gpu: EngineGpu): Promise<string> {
    const hash = createHash("sha256");
    const file = await patchFile();
    hash.update(path.basename(file));
    const sections = (await readFile(file, "utf8")).split(/^(?=diff --git )/m);
    for (const section of sections.filter((text) => text.startsWith("diff --git a/node_modules/node-llama-cpp/llama/"))) hash.update(section);
    const llamaCppPatch = await readLlamaCppPatch(llamaDir);
    if (llamaCppPatch != null) hash.update(`${llamaCppPatch.name}\n${llamaCppPatch.diff}`);
    hash.update(`${process.platform}-${process.arch}-${gpu === false ? "cpu" : gpu} ${JSON.stringify(buildOptions(gpu))}`);
    return hash.digest("hex").slice(0, 16);
}

/**
 * node-llama-cpp's folder name for a build of this backend with no custom options on this platform: the one its
 * getLlama looks in, a GPU's first (a build with custom options lands in a folder named with their hash, and is moved
 * here).
 */
function localBuildDir(gpu: EngineGpu): string {
    return path.join(llamaDir, "localBuilds", `${process.platform}-${process.arch}${gpu === false ? "" : `-${gpu}`}`);
}

function cacheDir(key: string): string {
    return path.join(process.env.SVC_ENGINE_CACHE ?? path.join(homedir(), ".cache/svc-studio/engine"), key);
}

/** Whether the local build in node_modules is the one for this key. */
async function engineBuilt(key: string, gpu: EngineGpu): Promise<boolean> {
    const stamp = await readFile(path.join(localBuildDir(gpu), stampName), "utf8").catch(() => undefined);
    return stamp != null && (JSON.parse(stamp) as {key: string}).key === key;
}

function run(args: string[], gpu: EngineGpu, log: (line: string) => void): Promise<void> {
    // ccache, where installed, makes a rebuild after a patch change take seconds instead of minutes.
    const ccache = ["/usr/bin/ccache", "/usr/local/bin/ccache"].find((file) => existsSync(file));
    const env = {...process.env, ...buildOptions(gpu), ...ccache == null ? {} : {CMAKE_C_COMPILER_LAUNCHER: ccache, CMAKE_CXX_COMPILER_LAUNCHER: ccache}};
    return runCommand(process.execPath, [cli, ...args], {cwd: root, env, log});
}

/** Builds (or restores from the cache) the patched engine; a no-op when node_modules already holds it. */
export async function ensureEngineBuild(log: (line: string) => void = (line) => console.error(line), gpu: EngineGpu = false): Promise<"built" | "restored" | "up to date"> {
    const key = await engineBuildKey(gpu);
    if (await engineBuilt(key, gpu)) return "up to date";
    const target = localBuildDir(gpu);
    const cached = cacheDir(key);
    let outcome: "built" | "restored" = "restored";
    if (!existsSync(path.join(cached, stampName))) {
        if (!existsSync(path.join(llamaDir, "llama.cpp"))) await run(["source", "download", "--skipBuild"], gpu, log);
        const llamaCppPatch = await readLlamaCppPatch(llamaDir);
        if (llamaCppPatch != null) {
            const changed = await applyLlamaCppPatch(path.join(llamaDir, "llama.cpp"), llamaCppPatch.diff);
            log(`${llamaCppPatch.name}: ${changed === 0 ? "already applied" : `applied ${changed} hunks`}`);
        }
        await run(["source", "build", "--gpu", gpu === false ? "false" : gpu], gpu, log);
        const built = path.join(llamaDir, "localBuilds", (JSON.parse(await readFile(path.join(llamaDir, "lastBuild.json"), "utf8")) as {folderName: string}).folderName);
        await rm(cached, {recursive: true, force: true});
        await mkdir(cached, {recursive: true});
        for (const file of keptFiles) await cp(path.join(built, file), path.join(cached, file), {recursive: true});
        // The rest of that folder is cmake's tree (about 100 MB); ccache, where installed, keeps rebuilds fast.
        if (built !== target) await rm(built, {recursive: true, force: true});
        // The stamp goes in last: a cache folder without it is a half-done copy and is made again.
        await writeFile(path.join(cached, stampName), JSON.stringify({key}));
        outcome = "built";
    }
    await rm(target, {recursive: true, force: true});
    await mkdir(target, {recursive: true});
    for (const file of keptFiles) await cp(path.join(cached, file), path.join(target, file), {recursive: true});
    await writeFile(path.join(target, stampName), JSON.stringify({key}));
    // What node-llama-cpp's getLlama("lastBuild") would load.
    await writeFile(path.join(llamaDir, "lastBuild.json"), JSON.stringify({folderName: path.basename(target)}));
    return outcome;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const started = Date.now();
    const gpu = gpuArgument();
    const outcome = await ensureEngineBuild(undefined, gpu);
    console.log(`engine (node-llama-cpp addon with the svc-studio patch, ${gpu === false ? "CPU" : gpu}): ${outcome} in ${((Date.now() - started) / 1000).toFixed(0)} s, ${localBuildDir(gpu)}`);
}
