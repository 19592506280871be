import {getLlama, getLlamaGpuTypes, LlamaLogLevel, type LlamaGpuType} from "node-llama-cpp";
import {probeGpuHardware, type GpuHardware} from "./probeGpuHardware.ts";
import {explainGpuSupport, worthTrying, type BackendTry, type GpuBackendReport, type GpuBackendType} from "./utils/explainGpuSupport.ts";

export type GpuReport = {
    platform: string,
    arch: string,
    /** What node-llama-cpp's own check (`getLlamaGpuTypes("supported")`) finds usable. */
    nodeLlamaCppSupported: LlamaGpuType[],
    backends: GpuBackendReport[],
    /** The backend `--gpu auto` will use; false: the CPU. */
    best: GpuBackendType | false,
    hardware: GpuHardware
};

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
