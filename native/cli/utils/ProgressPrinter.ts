import type {DownloadProgress} from "../../models/download/downloadModel.ts";
import {formatProgressLine} from "./formatProgressLine.ts";

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
