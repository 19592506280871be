import os from "node:os";
import {GgufInsights, readGgufFileInfo, type Llama} from "node-llama-cpp";
import {formatBytes} from "../../base/common/format.ts";

/** `--gpu-layers`: a count, `auto` (as many as fit in free VRAM) or `max` (all, or fail). */
export type GpuLayersChoice = number | "auto" | "max";

export type ModelLoadPlan = {
    /** Tokens per sequence: the one asked for, else the training context capped at `contextCap`. */
    contextSize: number,
    trainContextSize?: number,
    parallel: number,
    totalLayers: number,
    /** Layers expected on the GPU (0 on the CPU). */
    gpuLayers: number,
    /** node-llama-cpp's estimate of what loading and the context will take. */
    estimate?: {modelRamBytes: number, modelVramBytes: number, contextRamBytes: number, contextVramBytes: number},
    available: {ramTotalBytes: number, ramFreeBytes: number, vramTotalBytes: number, vramFreeBytes: number},
    /** Empty when everything is expected to fit. */
    warnings: string[]
};

/**
 * Estimates, before any weight is loaded, what the model and its context will need (node-llama-cpp's GgufInsights)
 * against the free RAM and VRAM, and says in `warnings` when it will not fit, so a person sees why before the
 * machine starts swapping or llama.cpp fails to allocate.
 */
export async function planModelLoad(llama: Llama, options: {modelPath: string, gpuLayers: GpuLayersChoice, contextSize?: number, parallel: number, contextCap: number}): Promise<ModelLoadPlan> {
    const insights = await GgufInsights.from(await readGgufFileInfo(options.modelPath, {sourceType: "filesystem", logWarnings: false}), llama);
    const trainContextSize = insights.trainContextSize;
    const contextSize = options.contextSize ?? Math.min(trainContextSize ?? options.contextCap, options.contextCap);
    const [vram, ram] = await Promise.all([llama.getVramState(), llama.getRamState()]);
    const available = {ramTotalBytes: ram.total, ramFreeBytes: Math.max(ram.free, os.freemem()), vramTotalBytes: vram.total, vramFreeBytes: vram.free};
    const plan: ModelLoadPlan = {contextSize, trainContextSize, parallel: options.parallel, totalLayers: insights.totalLayers, gpuLayers: 0, available, warnings: []};
    try {
        plan.gpuLayers = await resolveGpuLayers(llama, insights, options.gpuLayers);
        // The synchronous estimators read only the header; the V2 ones load the model in a simulator, which is what we avoid here.
        const model = insights.estimateModelResourceRequirements({gpuLayers: plan.gpuLayers});
        const context = insights.estimateContextResourceRequirements({contextSize, modelGpuLayers: plan.gpuLayers, sequences: options.parallel});
        plan.estimate = {modelRamBytes: model.cpuRam, modelVramBytes: model.gpuVram, contextRamBytes: context.cpuRam, contextVramBytes: context.gpuVram};
    } catch (error) {
        plan.warnings.push(`memory could not be estimated for this model: ${(error as Error).message}`);
        return plan;
    }
    const ramNeeded = plan.estimate.modelRamBytes + plan.estimate.contextRamBytes;
    const vramNeeded = plan.estimate.modelVramBytes + plan.estimate.contextVramBytes;
    if (ramNeeded > available.ramTotalBytes)
        plan.warnings.push(`it needs about ${formatBytes(ramNeeded)} of RAM but this machine has ${formatBytes(available.ramTotalBytes)}: ` +
            "it will not fit; choose a smaller model or quantization, or a smaller --context-size");
    else if (ramNeeded > available.ramFreeBytes)
        plan.warnings.push(`it needs about ${formatBytes(ramNeeded)} of RAM and ${formatBytes(available.ramFreeBytes)} is free: ` +
            "expect swapping; close other programs or use a smaller --context-size");
    if (llama.gpu !== false && vramNeeded > available.vramFreeBytes)
        plan.warnings.push(`it needs about ${formatBytes(vramNeeded)} of GPU memory for ${plan.gpuLayers} of ${plan.totalLayers} layers and ` +
            `${formatBytes(available.vramFreeBytes)} is free: use --gpu-layers auto or fewer layers, or a smaller --context-size`);
    return plan;
}

async function resolveGpuLayers(llama: Llama, insights: GgufInsights, choice: GpuLayersChoice): Promise<number> {
    if (llama.gpu === false || !llama.supportsGpuOffloading) return 0;
    if (choice === "max") return insights.totalLayers;
    if (typeof choice === "number") return Math.min(choice, insights.totalLayers);
    return insights.configurationResolver.resolveModelGpuLayers("auto", {
        getVramState: () => llama.getVramState(),
        llamaGpu: llama.gpu,
        llamaSupportsGpuOffloading: llama.supportsGpuOffloading
    });
}

/** The plan in a few lines for the engine's start-up output (`memory: ...`, then one `warning: ...` each). */
export function describeModelLoadPlan(plan: ModelLoadPlan, gpu: string | false): string[] {
    const lines: string[] = [];
    if (plan.estimate != null) {
        const {modelRamBytes, modelVramBytes, contextRamBytes, contextVramBytes} = plan.estimate;
        const where = gpu === false ? "CPU" : `${plan.gpuLayers}/${plan.totalLayers} layers on ${gpu}`;
        lines.push(`memory: about ${formatBytes(modelRamBytes + contextRamBytes)} RAM` +
            (gpu !== false ? ` + ${formatBytes(modelVramBytes + contextVramBytes)} VRAM` : "") +
            ` (model ${formatBytes(modelRamBytes + modelVramBytes)}, context ${plan.contextSize} x ${plan.parallel} ${formatBytes(contextRamBytes + contextVramBytes)}); ${where}; ` +
            `${formatBytes(plan.available.ramFreeBytes)} RAM free` + (gpu !== false ? `, ${formatBytes(plan.available.vramFreeBytes)} VRAM free` : ""));
    }
    for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
    return lines;
}
