import type {TextChunks} from "../../scoring/types.ts";

// What every import (a promptfoo config, an OpenAI eval, prompt objects) shares: where a value came from (file,
// line, field), the error that stops an import before anything is written, the report of what was left out, and
// the files an import reads (from disk in the CLI; the browser-safe code never touches a file system itself).

/** Where a value is: the file, its line when known (1-based), and the field's path inside it (`tests[2].assert[0]`). */
export type Place = {file: string, line?: number, field: string};

/** "tests.csv:12: __expected2": a place as a message starts it. */
export function describePlace(place: Place): string {
    return `${place.file}${place.line === undefined ? "" : `:${place.line}`}${place.field === "" ? "" : `: ${place.field}`}`;
}

/** Input that cannot be imported: `message` starts with the file, line and field at fault; nothing was written. */
export class ImportError extends Error {
    public readonly place: Place;
    /** What the import had found left out before it stopped, said with the error. */
    public report?: ImportReport;

    public constructor(place: Place, reason: string) {
        super(`${describePlace(place)}: ${reason}`);
        this.name = "ImportError";
        this.place = place;
    }
}

/** A field of the input the import left out, and why. */
export type NotImported = Place & {reason: string};

/**
 * What an import did not bring over, listed in one report before the result is written or run. Repeats of the same
 * field and reason in many rows (a CSV's `__metadata` column on every row) are one entry with a count.
 */
export class ImportReport {
    private readonly entries = new Map<string, NotImported & {count: number}>();
    public readonly notes: string[] = [];

    public notImported(place: Place, reason: string): void {
        const key = `${place.file}\u0000${place.field.replace(/\[\d+\]/g, "[]")}\u0000${reason}`;
        const entry = this.entries.get(key);
        if (entry === undefined) this.entries.set(key, {...place, reason, count: 1});
        else entry.count++;
    }

    public note(text: string): void {
        if (!this.notes.includes(text)) this.notes.push(text);
    }

    /** Every field left out, first place of each in order, with how many places share it. */
    public get items(): Array<NotImported & {count: number}> {
        return [...this.entries.values()];
    }

    /** The report as lines: "not imported: promptfooconfig.yaml:14: providers[1]: anthropic:... is not ..." (`verb`: exported for an export). */
    public lines(verb = "imported"): string[] {
        return [
            ...this.items.map((item) => `not ${verb}: ${describePlace(item)}: ${item.reason}${item.count > 1 ? ` (and ${item.count - 1} more like it)` : ""}`),
            ...this.notes.map((note) => `note: ${note}`)
        ];
    }
}

/**
 * The files an import reads. Paths are as `resolve` makes them; a file that cannot be read rejects with a Node-style
 * error (`code` "ENOENT" and the like), which the import turns into an ImportError naming the field that named it.
 */
export interface SourceFiles {
    resolve(fromFile: string, reference: string): string;
    readText(file: string): Promise<string>;
    /** The file's text in pieces, for files too large to hold whole (JSONL, CSV). */
    chunks(file: string): TextChunks;
}

/** Reads a referenced file's text, or throws an ImportError at the place that named it. */
export async function readReferenced(files: SourceFiles, file: string, place: Place): Promise<string> {
    try {
        return await files.readText(file);
    } catch (error) {
        throw new ImportError(place, fileProblem(file, error));
    }
}

/** "no such file: x.csv", or the system's own message for a file that cannot be read. */
export function fileProblem(file: string, error: unknown): string {
    const code = (error as {code?: unknown} | null)?.code;
    if (code === "ENOENT") return `no such file: ${file}`;
    if (code === "EISDIR") return `${file} is a folder, not a file`;
    if (code === "EACCES" || code === "EPERM") return `${file} cannot be read: permission denied`;
    return `${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

/** Text pieces as lines (LF or CRLF), streamed: a large file is never held whole. */
export async function* textLines(chunks: TextChunks): AsyncGenerator<string, void, undefined> {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of chunks) {
        rest += typeof chunk === "string" ? chunk : decoder.decode(chunk, {stream: true});
        let start = 0;
        for (let newline = rest.indexOf("\n"); newline >= 0; newline = rest.indexOf("\n", start)) {
            yield rest.slice(start, newline).replace(/\r$/, "");
            start = newline + 1;
        }
        rest = rest.slice(start);
    }
    rest += decoder.decode();
    if (rest !== "") yield rest.replace(/\r$/, "");
}

/**
 * A JSONL file's values with their line numbers, read as a stream. A line that is no JSON is an ImportError at its
 * line; a file that cannot be read, one at `from`, the place that named it.
 */
export async function* jsonLines(files: SourceFiles, file: string, from: Place): AsyncGenerator<{line: number, value: unknown}, void, undefined> {
    const lines = textLines(files.chunks(file));
    for (let line = 1; ; line++) {
        let next: IteratorResult<string>;
        try {
            next = await lines.next();
        } catch (error) {
            throw new ImportError(from, fileProblem(file, error));
        }
        if (next.done === true) return;
        if (next.value.trim() === "") continue;
        let value: unknown;
        try {
            value = JSON.parse(next.value);
        } catch (error) {
            throw new ImportError({file, line, field: ""}, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
        }
        yield {line, value};
    }
}
