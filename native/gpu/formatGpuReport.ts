import {formatBytes} from "../models/utils/formatBytes.ts";
import type {GpuReport} from "./detectGpu.ts";

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
