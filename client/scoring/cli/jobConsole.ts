import type {JobProgress} from "../types.ts";
import {formatProgress} from "./scoreArgs.ts";

// What a CLI shows and does while a job runs: its progress on stderr, and Ctrl-C.

/**
 * A job's progress on stderr for the CLIs (score, eval). On a terminal: one line redrawn with \r; otherwise (a log,
 * a pipe) a line every 5 s and at state changes. `unit`: what the job counts (rows, cells).
 */
export function progressDisplay(unit = "rows") {
    const tty = process.stderr.isTTY === true;
    let lastLine = "";
    let lastPrinted = 0;
    let lastStatus = "";
    return {
        update(progress: JobProgress) {
            const line = formatProgress(progress, 24, unit);
            if (tty) {
                const width = Math.max(20, (process.stderr.columns ?? 100) - 1);
                process.stderr.write(`\r${line.slice(0, width).padEnd(Math.min(width, Math.max(lastLine.length, line.length)))}`);
                lastLine = line;
                return;
            }
            const now = Date.now();
            if (now - lastPrinted >= 5000 || progress.status !== lastStatus) {
                process.stderr.write(`${line}\n`);
                lastPrinted = now;
                lastStatus = progress.status;
            }
        },
        end() {
            if (tty && lastLine !== "") process.stderr.write("\n");
        }
    };
}

/** First Ctrl-C (or SIGTERM) cancels the job cleanly, keeping what is stored; a second one exits at once. */
export function interruptions(runner: {cancel(): void}): () => void {
    let count = 0;
    const onSignal = () => {
        count++;
        if (count > 1) process.exit(130);
        runner.cancel();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    return () => {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
    };
}

/** Runs a job with Ctrl-C wired to its cancel (interruptions), then ends the progress line, however the run ends. */
export async function runInConsole<T>(runner: {run(): Promise<T>, cancel(): void}, display: {end(): void}): Promise<T> {
    const stop = interruptions(runner);
    try {
        return await runner.run();
    } finally {
        stop();
        display.end();
    }
}
