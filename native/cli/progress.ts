import type {DownloadProgress} from "../download/downloadModel.ts";
import {formatBytes, formatDuration} from "../../base/common/format.ts";

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

/**
 * Download progress on a terminal: one line redrawn in place (`\r`) when the stream is a TTY; otherwise (a log,
 * a pipe) a plain line every 10% or 10 s, so logs stay readable.
 */
export class ProgressPrinter {
    private readonly stream: NodeJS.WritableStream & {isTTY?: boolean, columns?: number};
    private lastLength = 0;
    private lastPlainAt = 0;
    private lastPlainDecile = -1;

    public constructor(stream: NodeJS.WritableStream & {isTTY?: boolean, columns?: number} = process.stdout) {
        this.stream = stream;
    }

    public update(progress: DownloadProgress) {
        const line = formatProgressLine(progress);
        if (this.stream.isTTY === true) {
            const width = (this.stream.columns ?? 100) - 1;
            const shown = line.slice(0, width);
            this.stream.write(`\r${shown}${" ".repeat(Math.max(0, this.lastLength - shown.length))}`);
            this.lastLength = shown.length;
            return;
        }
        const decile = progress.totalBytes != null && progress.totalBytes > 0 ? Math.floor(progress.receivedBytes / progress.totalBytes * 10) : -1;
        const now = Date.now();
        if (decile === this.lastPlainDecile && now - this.lastPlainAt < 10_000) return;
        this.lastPlainDecile = decile;
        this.lastPlainAt = now;
        this.stream.write(line + "\n");
    }

    /** Ends the in-place line, so what follows starts on its own line. */
    public done() {
        if (this.stream.isTTY === true && this.lastLength > 0) this.stream.write("\n");
        this.lastLength = 0;
    }

    /** A message between progress lines (a retry notice). */
    public note(message: string) {
        this.done();
        this.stream.write(message + "\n");
    }
}
