import {open, readFile, truncate} from "node:fs/promises";
import {writeFileAtomic} from "../../base/node/writeFileAtomic.ts";

/**
 * A file of JSON lines that only grows: each line is appended, so storing row N costs the same as storing row 1 (a job
 * file rewritten per row would cost the sum of all rows, quadratic). An append resolves once its line is flushed to
 * disk (fdatasync). Lines appended while a flush is under way are written together by the next one (group commit), so
 * rows scored in parallel share one sync. A crash can cut the last line short; `readLines` skips such a line and
 * `repairTail` cuts it off before anything is appended after it.
 */
export class AppendLog {
    public readonly filePath: string;
    /** The last write (append batch or rewrite) queued; every write starts after it. */
    private tail: Promise<void> = Promise.resolve();
    /** Lines waiting for the next batch, with the promise that batch resolves; null when none is waiting. */
    private batch: {lines: string[], written: Promise<void>} | null = null;

    public constructor(filePath: string) {
        this.filePath = filePath;
    }

    /** Appends one line (`text` must hold no newline); resolves once it is on disk. */
    public append(text: string): Promise<void> {
        if (this.batch === null) {
            const lines: string[] = [];
            const written = this.tail.then(() => {
                // From here on new lines go to the next batch.
                if (this.batch?.lines === lines) this.batch = null;
                return this.write(lines);
            });
            this.batch = {lines, written};
            this.tail = written.catch(() => undefined);
        }
        this.batch.lines.push(text + "\n");
        return this.batch.written;
    }

    /**
     * Runs `change` once every append queued before it is on disk, and before any queued after it; `change` may replace
     * the file (`replace`), e.g. to drop lines.
     */
    public exclusive<T>(change: () => Promise<T>): Promise<T> {
        this.batch = null;
        const done = this.tail.then(change);
        this.tail = done.then(() => undefined, () => undefined);
        return done;
    }

    /** Replaces the whole file atomically (call it inside `exclusive`). */
    public replace(lines: string[]): Promise<void> {
        return writeFileAtomic(this.filePath, lines.map((line) => line + "\n").join(""), 0o600);
    }

    /** The complete lines of the file (none when it does not exist), and whether its end is a line cut short. */
    public async readLines(): Promise<{lines: string[], tornTail: boolean}> {
        let text: string;
        try {
            text = await readFile(this.filePath, "utf8");
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") return {lines: [], tornTail: false};
            throw error;
        }
        const lines = text.split("\n");
        const last = lines.pop() ?? "";
        return {lines: lines.filter((line) => line !== ""), tornTail: last !== ""};
    }

    /** Cuts a line the last writer did not finish off the end of the file, so the next append starts a line of its own. */
    public async repairTail(): Promise<void> {
        let text: Buffer;
        try {
            text = await readFile(this.filePath);
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
            throw error;
        }
        if (text.length === 0 || text[text.length - 1] === 0x0a) return;
        await truncate(this.filePath, text.lastIndexOf(0x0a) + 1);
    }

    private async write(lines: string[]): Promise<void> {
        if (lines.length === 0) return;
        const handle = await open(this.filePath, "a", 0o600);
        try {
            // writeFile on a handle opened for appending appends, and loops until every byte is written.
            await handle.writeFile(lines.join(""));
            await handle.datasync();
        } finally {
            await handle.close();
        }
    }
}
