import {execFile} from "node:child_process";
import {access, readdir} from "node:fs/promises";
import path from "node:path";

/** What the machine has, independent of node-llama-cpp: the facts the GPU report explains itself with. */
export type GpuHardware = {
    platform: NodeJS.Platform,
    arch: string,
    /** `/dev/nvidia0` exists (Linux). */
    nvidiaDeviceFile: boolean,
    /** GPUs `nvidia-smi` lists (empty when it is missing or fails). */
    nvidiaSmiGpus: string[],
    /** The NVIDIA driver's user-space library (libcuda / libnvidia-ml) is installed. */
    nvidiaDriverLibrary: boolean,
    /** CUDA runtime libraries llama.cpp's CUDA build needs that were not found (Linux). */
    missingCudaLibraries: string[],
    /** The Vulkan loader (libvulkan) is installed. */
    vulkanLoader: boolean
};

/** Folders where CUDA and Vulkan libraries live on Linux (the same places node-llama-cpp looks). */
async function librarySearchPaths(env: NodeJS.ProcessEnv): Promise<string[]> {
    const cudaRoots = ["/usr/local/cuda", ...await subfolders("/usr/local", /^cuda-[\d.]+$/), env.CUDA_PATH].filter((dir): dir is string => dir != null && dir !== "");
    const cudaLibs = (await Promise.all(cudaRoots.map(async (root) => [
        path.join(root, "lib64"),
        path.join(root, "lib"),
        ...(await subfolders(path.join(root, "targets"), /./)).map((target) => path.join(target, "lib"))
    ]))).flat();
    return [
        ...(env.LD_LIBRARY_PATH ?? "").split(":").filter((dir) => dir !== ""),
        "/usr/lib", "/usr/lib64", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib/wsl/lib",
        ...cudaLibs
    ];
}

export async function probeGpuHardware(env: NodeJS.ProcessEnv = process.env): Promise<GpuHardware> {
    const platform = process.platform;
    const base = {platform, arch: process.arch, nvidiaSmiGpus: await nvidiaSmiGpus()};
    if (platform !== "linux")
        return {...base, nvidiaDeviceFile: false, nvidiaDriverLibrary: base.nvidiaSmiGpus.length > 0, missingCudaLibraries: [], vulkanLoader: false};
    const dirs = await librarySearchPaths(env);
    const has = (names: string[]) => anyFile(dirs, names);
    const cudaRuntime: Array<[string, string[]]> = [
        ["libcudart", ["libcudart.so", "libcudart.so.12", "libcudart.so.13", "libcudart.so.11.0"]],
        ["libcublas", ["libcublas.so", "libcublas.so.12", "libcublas.so.13", "libcublas.so.11"]],
        ["libcublasLt", ["libcublasLt.so", "libcublasLt.so.12", "libcublasLt.so.13", "libcublasLt.so.11"]]
    ];
    const missing: string[] = [];
    for (const [name, files] of cudaRuntime) if (!await has(files)) missing.push(name);
    return {
        ...base,
        nvidiaDeviceFile: await exists("/dev/nvidia0"),
        nvidiaDriverLibrary: await has(["libcuda.so", "libcuda.so.1", "libnvidia-ml.so", "libnvidia-ml.so.1"]),
        missingCudaLibraries: missing,
        vulkanLoader: await has(["libvulkan.so", "libvulkan.so.1"])
    };
}

/** `nvidia-smi` GPU names and memory; nothing when it is not installed or finds no GPU. */
function nvidiaSmiGpus(): Promise<string[]> {
    return new Promise((resolve) => {
        execFile("nvidia-smi", ["--query-gpu=name,memory.total", "--format=csv,noheader"], {timeout: 5_000, windowsHide: true}, (error, stdout) => {
            resolve(error != null ? [] : stdout.split("\n").map((line) => line.trim()).filter((line) => line !== ""));
        });
    });
}

async function anyFile(dirs: string[], names: string[]): Promise<boolean> {
    for (const dir of dirs)
        for (const name of names)
            if (await exists(path.join(dir, name))) return true;
    return false;
}

async function exists(filePath: string): Promise<boolean> {
    return access(filePath).then(() => true, () => false);
}

async function subfolders(dir: string, pattern: RegExp): Promise<string[]> {
    const entries = await readdir(dir, {withFileTypes: true}).catch(() => []);
    return entries.filter((entry) => entry.isDirectory() && pattern.test(entry.name)).map((entry) => path.join(dir, entry.name));
}
