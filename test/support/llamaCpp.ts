import {existsSync} from "node:fs";
import {cp, mkdir, readFile, rename, rm} from "node:fs/promises";
import {homedir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {runCommand} from "../../base/node/runCommand.ts";
import {gpuArgument, type EngineGpu} from "../../native/build/buildEngine.ts";
import {applyLlamaCppPatch, readLlamaCppPatch} from "../../native/build/llamaCppPatch.ts";

/**
 * llama.cpp's own `llama-server` and `llama-bench`, built from the very source node-llama-cpp bundles
 * (`node_modules/node-llama-cpp/llama/gitRelease.bundle`), so a comparison with them measures our layers and not a
 * different llama.cpp. The build (cmake, CPU, about 15 minutes on 2 cores for both tools) is cached per release
 * under `~/.cache/svc-studio/llama.cpp/<tag>/` (or `$SVC_LLAMA_CPP_CACHE`), so only the first run pays for it; a CUDA
 * build (`npm run bench:llama-server -- --gpu cuda`, for this machine's GPU only) under `<tag>-cuda/`. Benchmarks and
 * the upstream tests use it; products never do.
 */
const bundledLlama = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/node-llama-cpp/llama");

/** The tools and the backend they were built for: the benchmarks offload every layer to it, as `--gpu-layers max` does ours. */
export type LlamaCppTools = {server: string, bench: string, tag: string, gpu: LlamaCppGpu};
export type LlamaCppGpu = EngineGpu;

export async function bundledLlamaCppTag(): Promise<string> {
    return (JSON.parse(await readFile(path.join(bundledLlama, "llama.cpp.info.json"), "utf8")) as {tag: string}).tag;
}

export async function llamaCppCacheDir(gpu: LlamaCppGpu = false): Promise<string> {
    const root = process.env.SVC_LLAMA_CPP_CACHE ?? path.join(homedir(), ".cache/svc-studio/llama.cpp");
    return path.join(root, await bundledLlamaCppTag() + (gpu === false ? "" : `-${gpu}`));
}

/** The tools when already built, else undefined (tests that need them say they skip, with this reason). */
export async function builtLlamaCpp(gpu: LlamaCppGpu = false): Promise<LlamaCppTools | undefined> {
    const dir = await llamaCppCacheDir(gpu);
    const tools = {server: path.join(dir, "bin/llama-server"), bench: path.join(dir, "bin/llama-bench"), tag: await bundledLlamaCppTag(), gpu};
    return existsSync(tools.server) && existsSync(tools.bench) ? tools : undefined;
}

/** Builds the tools once into the cache (a half-done build never counts: the binaries move in last). */
export async function ensureLlamaCpp(log: (line: string) => void = (line) => console.error(line), gpu: LlamaCppGpu = false): Promise<LlamaCppTools> {
    const built = await builtLlamaCpp(gpu);
    if (built != null) return built;
    const dir = await llamaCppCacheDir(gpu);
    const work = path.join(dir, "work");
    await rm(work, {recursive: true, force: true});
    await mkdir(work, {recursive: true});
    // The bundle's release, or a copy of the same release already checked out by `npm run build:engine` (a machine
    // without git) with our llama.cpp diff taken out again: the anchors are llama.cpp's own code, not our engine's.
    const checkedOut = path.join(bundledLlama, "llama.cpp");
    const source = path.join(work, "src");
    if (existsSync(path.join(checkedOut, "CMakeLists.txt"))) {
        await cp(checkedOut, source, {recursive: true, filter: (file) => path.basename(file) !== ".git"});
        const patch = await readLlamaCppPatch(bundledLlama);
        if (patch != null) await applyLlamaCppPatch(source, patch.diff, {reverse: true});
    } else await runCommand("git", ["clone", "--quiet", path.join(bundledLlama, "gitRelease.bundle"), source], {cwd: work, log});
    const jobs = String(Math.max(1, (await import("node:os")).availableParallelism()));
    await runCommand("cmake", ["-S", source, "-B", path.join(work, "build"), "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF",
        "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF", "-DGGML_NATIVE=ON",
        // With GGML_NATIVE, ggml-cuda compiles for the GPUs of this machine only (CMAKE_CUDA_ARCHITECTURES=native).
        ...gpu === "cuda" ? ["-DGGML_CUDA=ON"] : []], {cwd: work, log});
    await runCommand("cmake", ["--build", path.join(work, "build"), "--config", "Release", "-j", jobs, "--target", "llama-server", "llama-bench"], {cwd: work, log});
    await mkdir(path.join(dir, "bin"), {recursive: true});
    for (const tool of ["llama-bench", "llama-server"])
        await rename(path.join(work, "build/bin", tool), path.join(dir, "bin", tool));
    await rm(work, {recursive: true, force: true});
    return (await builtLlamaCpp(gpu))!;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
    const started = Date.now();
    const tools = await ensureLlamaCpp(undefined, gpuArgument());
    console.log(`llama.cpp ${tools.tag}: ${tools.server}, ${tools.bench} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
