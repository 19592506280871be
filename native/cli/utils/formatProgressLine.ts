import type {DownloadProgress} from "../../models/download/downloadModel.ts";
import {formatBytes} from "../../models/utils/formatBytes.ts";

/** `[#######.............]  37%  340 MiB / 639 MiB  12.3 MiB/s  ETA 0:24` (no bar when the size is unknown). */
export function formatProgressLine(progress: DownloadProgress, barWidth = 24): string {
    const speed = `${formatBytes(progress.bytesPerSecond)}/s`;
    if (progress.totalBytes == null || progress.totalBytes === 0)
        return `${formatBytes(progress.receivedBytes)}  ${speed}`;
    const fraction = Math.min(1, progress.receivedBytes / progress.totalBytes);
    const filled = Math.round(fraction * barWidth);
    const eta = progress.etaSeconds != null ? `  ETA ${formatDuration(progress.etaSeconds)}` : "";
    return `[${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ${`${Math.floor(fraction * 100)}%`.padStart(4)}  ` +
        `${formatBytes(progress.receivedBytes)} / ${formatBytes(progress.totalBytes)}  ${speed}${eta}`;
}

/** 0:07, 12:30, 1:02:03. */
export function formatDuration(seconds: number): string {
    const total = Math.round(seconds);
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const rest = String(total % 60).padStart(2, "0");
    return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}
