import {execFile} from "node:child_process";
import {access, readdir} from "node:fs/promises";
import path from "node:path";
import {getLlama, getLlamaGpuTypes, LlamaLogLevel} from "node-llama-cpp";
import {formatBytes} from "../../base/common/format.ts";
import type {GpuHardware, GpuBackendType, BackendTry, GpuBackendReport, GpuReport} from "../../protocol/gateway/contract.ts";

/** Which backends the platform could have at all (node-llama-cpp ships CUDA and Vulkan builds; Metal on Apple silicon). */
export function candidateBackends(hardware: GpuHardware): GpuBackendType[] {
    if (hardware.platform === "darwin") return hardware.arch === "arm64" ? ["metal"] : [];
    return ["cuda", "vulkan"];
}

/** Whether trying a backend is worth its seconds: only when the hardware facts say it might work. */
export function worthTrying(type: GpuBackendType, hardware: GpuHardware): boolean {
    if (type === "cuda") return hasNvidiaGpu(hardware) && hardware.missingCudaLibraries.length === 0;
    if (type === "vulkan") return hardware.vulkanLoader || hardware.platform === "win32";
    return hardware.platform === "darwin" && hardware.arch === "arm64";
}

/** One report per candidate backend: usable with its devices, or the reason it is not. */
export function explainGpuSupport(hardware: GpuHardware, tries: Partial<Record<GpuBackendType, BackendTry>>): GpuBackendReport[] {
    return candidateBackends(hardware).map((type) => {
        const tried = tries[type];
        if (tried?.ok === true)
            return {type, usable: true, devices: tried.devices, vramTotalBytes: tried.vramTotalBytes, vramFreeBytes: tried.vramFreeBytes};
        return {type, usable: false, devices: [], reason: reasonFor(type, hardware, tried)};
    });
}

function hasNvidiaGpu(hardware: GpuHardware): boolean {
    return hardware.nvidiaDeviceFile || hardware.nvidiaSmiGpus.length > 0;
}

function reasonFor(type: GpuBackendType, hardware: GpuHardware, tried: BackendTry | undefined): string {
    const failure = tried?.ok === false ? tried.error : undefined;
    if (type === "cuda") {
        if (!hasNvidiaGpu(hardware)) return "no NVIDIA GPU found (no /dev/nvidia0, nvidia-smi lists none)";
        const gpu = hardware.nvidiaSmiGpus[0] ?? "/dev/nvidia0";
        if (!hardware.nvidiaDriverLibrary && hardware.platform === "linux")
            return `an NVIDIA GPU is present (${gpu}) but its driver library (libcuda.so.1) is not installed or not visible: install the NVIDIA driver`;
        if (hardware.missingCudaLibraries.length > 0)
            return `an NVIDIA GPU is present (${gpu}) but the CUDA runtime is missing (${hardware.missingCudaLibraries.join(", ")} not found): ` +
                "install the CUDA 12 runtime libraries (e.g. the cuda-libraries-12 package) or add their folder to LD_LIBRARY_PATH";
        return `an NVIDIA GPU is present (${gpu}) but llama.cpp's CUDA build could not be loaded` + (failure != null ? `: ${failure}` : "");
    }
    if (type === "vulkan") {
        if (!hardware.vulkanLoader && hardware.platform !== "win32")
            return "no Vulkan loader found (libvulkan.so.1): install your GPU's Vulkan driver (e.g. mesa-vulkan-drivers) and libvulkan1";
        return "llama.cpp's Vulkan build could not be loaded (no Vulkan device, or its driver is too old)" + (failure != null ? `: ${failure}` : "");
    }
    return "Metal could not be used" + (failure != null ? `: ${failure}` : "");
}

/**
 * When `--gpu auto` ended on the CPU although the machine has an NVIDIA GPU, the reason (e.g. the CUDA runtime
 * is missing), so a slow engine is not a mystery. Undefined when there is no GPU to miss. Cheap: no library is loaded.
 */
export async function explainCpuFallback(): Promise<string | undefined> {
    const hardware = await probeGpuHardware();
    if (!hardware.nvidiaDeviceFile && hardware.nvidiaSmiGpus.length === 0) return undefined;
    const cuda = explainGpuSupport(hardware, {}).find((backend) => backend.type === "cuda");
    return cuda?.reason != null ? `running on the CPU: ${cuda.reason} (details: svc-studio gpu)` : undefined;
}

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

/**
 * Which GPU backend node-llama-cpp can use here, and for each one that it cannot, why. Backends the hardware
 * facts rule out are explained without loading anything; the rest are loaded for real (`build: "never"`: a
 * missing binary is reported, never compiled), a few seconds each.
 */
export async function detectGpu(): Promise<GpuReport> {
    const [hardware, nodeLlamaCppSupported] = await Promise.all([probeGpuHardware(), getLlamaGpuTypes("supported")]);
    const tries: Partial<Record<GpuBackendType, BackendTry>> = {};
    for (const type of ["cuda", "vulkan", "metal"] as const)
        if (worthTrying(type, hardware)) tries[type] = await tryBackend(type);
    const backends = explainGpuSupport(hardware, tries);
    return {
        platform: hardware.platform,
        arch: hardware.arch,
        nodeLlamaCppSupported,
        backends,
        best: backends.find((backend) => backend.usable)?.type ?? false,
        hardware
    };
}

async function tryBackend(type: GpuBackendType): Promise<BackendTry> {
    try {
        const llama = await getLlama({gpu: type, build: "never", skipDownload: true, progressLogs: false, logLevel: LlamaLogLevel.disabled, maxThreads: 1});
        try {
            if (llama.gpu !== type) return {ok: false, error: `node-llama-cpp fell back to ${llama.gpu === false ? "the CPU" : llama.gpu}`};
            const [devices, vram] = await Promise.all([llama.getGpuDeviceNames(), llama.getVramState()]);
            return {ok: true, devices, vramTotalBytes: vram.total, vramFreeBytes: vram.free};
        } finally {
            await llama.dispose();
        }
    } catch (error) {
        return {ok: false, error: (error as Error).message.split("\n")[0]};
    }
}

/** `svc-studio gpu`: one line per backend, then what `--gpu auto` will do. */
export function formatGpuReport(report: GpuReport): string {
    const lines = [`platform: ${report.platform} ${report.arch}`];
    if (report.hardware.nvidiaSmiGpus.length > 0) lines.push(`nvidia-smi: ${report.hardware.nvidiaSmiGpus.join("; ")}`);
    for (const backend of report.backends) {
        if (backend.usable) {
            const memory = backend.vramTotalBytes != null && backend.vramTotalBytes > 0
                ? ` (${formatBytes(backend.vramFreeBytes ?? 0)} free of ${formatBytes(backend.vramTotalBytes)})` : "";
            lines.push(`${backend.type}: usable: ${backend.devices.join(", ") || "device"}${memory}`);
        } else {
            lines.push(`${backend.type}: not usable: ${backend.reason}`);
        }
    }
    lines.push(report.best !== false
        ? `--gpu auto will use ${report.best}; layers are offloaded automatically (serve --gpu-layers auto|max|<n>)`
        : "--gpu auto will use the CPU");
    return lines.join("\n");
}
