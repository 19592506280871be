import {probeGpuHardware} from "./probeGpuHardware.ts";
import {explainGpuSupport} from "./utils/explainGpuSupport.ts";

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
