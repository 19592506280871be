import type {GpuHardware} from "../probeGpuHardware.ts";

export type GpuBackendType = "cuda" | "vulkan" | "metal";

/** What happened when node-llama-cpp was asked for a backend (`getLlama({gpu, build: "never"})`); absent when not tried. */
export type BackendTry = {ok: true, devices: string[], vramTotalBytes: number, vramFreeBytes: number} | {ok: false, error: string};

export type GpuBackendReport = {
    type: GpuBackendType,
    usable: boolean,
    devices: string[],
    vramTotalBytes?: number,
    vramFreeBytes?: number,
    /** Why it is not usable, in words a person can act on (absent when usable). */
    reason?: string
};

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
