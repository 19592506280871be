import type {JobProgress} from "../jobs/types.ts";

/** `1:05`, `1:02:03` */
export function formatDuration(seconds: number): string {
    const whole = Math.max(0, Math.round(seconds));
    const h = Math.floor(whole / 3600), m = Math.floor(whole % 3600 / 60), s = whole % 60;
    return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}` : `${m}:${String(s).padStart(2, "0")}`;
}

/** One status line: `[#####.....] 52% 520/1000 rows | 12.3 rows/s | ETA 0:39 | 2 errors | 3 retries`. */
export function formatProgress(progress: JobProgress, barWidth = 24): string {
    const parts: string[] = [];
    if (progress.totalRows !== null && progress.totalRows > 0) {
        const share = Math.min(1, progress.done / progress.totalRows);
        const filled = Math.round(share * barWidth);
        parts.push(`[${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ${Math.floor(share * 100)}% ${progress.done}/${progress.totalRows} rows`);
    } else parts.push(`${progress.done} rows`);
    if (progress.rowsPerSecond !== null) parts.push(`${progress.rowsPerSecond.toFixed(1)} rows/s`);
    if (progress.etaSeconds !== null && progress.status === "running") parts.push(`ETA ${formatDuration(progress.etaSeconds)}`);
    if (progress.failed > 0) parts.push(`${progress.failed} error${progress.failed === 1 ? "" : "s"}`);
    if (progress.retries > 0) parts.push(`${progress.retries} retr${progress.retries === 1 ? "y" : "ies"}`);
    if (progress.status !== "running") parts.push(progress.status);
    return parts.join(" | ");
}
