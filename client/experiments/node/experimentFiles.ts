import {open, readFile, rm, stat} from "node:fs/promises";
import path from "node:path";
import {writeFileAtomic} from "../../../base/node/writeFileAtomic.ts";
import {openSpreadsheetFile} from "../../scoring/node/spreadsheetFiles.ts";
import {openTable, typeNumberColumns} from "../../scoring/table.ts";
import type {SheetRow} from "../../scoring/types.ts";
import {datasetFromTable, ExperimentInputError, maxDatasetRows} from "../dataset.ts";
import {ExperimentFileError, isDatasetFile, parseExperimentSpec, serializeExperimentSpec, type DatasetFileRef} from "../experimentFile.ts";
import type {Dataset, ExperimentSpec} from "../types.ts";

// Experiment files on disk (Node only): reading one with the CSV or XLSX file its dataset names, and writing one
// as the app exports it.

export type LoadedExperiment = {spec: ExperimentSpec, dataset: Dataset, filePath: string};

/**
 * Reads and checks an experiment file and its dataset; a file dataset is read relative to the experiment file. Every
 * problem with the file is an ExperimentFileError that names it: missing or unreadable, not JSON (with the line and
 * column where the JSON breaks), or a field that is wrong (with the field's path).
 */
export async function readExperimentFile(filePath: string): Promise<LoadedExperiment> {
    let text: string;
    try {
        text = await readFile(filePath, "utf8");
    } catch (error) {
        throw new ExperimentFileError(fileProblem(filePath, error));
    }
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new ExperimentFileError(jsonProblem(filePath, text, error));
    }
    let spec: ExperimentSpec;
    try {
        spec = parseExperimentSpec(json);
    } catch (error) {
        if (error instanceof ExperimentFileError) throw new ExperimentFileError(`${filePath}: ${error.message}`);
        throw error;
    }
    const dataset = isDatasetFile(spec.dataset) ? await readDatasetFile(spec.dataset, path.dirname(path.resolve(filePath))) : spec.dataset;
    return {spec, dataset, filePath};
}

/** "no such file: x.json" and the like, for a file that cannot be read; the system's own message otherwise. */
export function fileProblem(filePath: string, error: unknown): string {
    switch ((error as NodeJS.ErrnoException | null)?.code) {
        case "ENOENT": return `no such file: ${filePath}`;
        case "ENOTDIR": return `no such file: ${filePath} (a folder on its path is a file)`;
        case "EISDIR": return `${filePath} is a folder, not a file`;
        case "EACCES":
        case "EPERM": return `${filePath} cannot be read: permission denied`;
        default: throw error;
    }
}

/**
 * "x.json:3:14: not JSON (Expected ',' or '}' after property value)": where JSON.parse stopped, as a line and a
 * column counted from 1. The position is JSON.parse's when its message gives one, else found by syntaxErrorOffset.
 */
export function jsonProblem(filePath: string, text: string, error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const given = / at position (\d+)/.exec(message);
    const offset = given !== null ? Number(given[1]) : syntaxErrorOffset(text);
    const detail = message.replace(/ in JSON at position \d+.*$/s, "").replace(/, .*" is not valid JSON$/s, "").replace(/^Unexpected end of JSON input$/, "the file ends before the JSON does")
        .replace(/[\n\r\t]/g, (char) => JSON.stringify(char).slice(1, -1));
    if (offset === null) return `${filePath}: not JSON (${detail})`;
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - (before.lastIndexOf("\n") + 1) + 1;
    return `${filePath}:${line}:${column}: not JSON (${detail})`;
}

/**
 * The offset of the first character at which `text` stops being JSON (its length when it ends too soon), or null
 * when it is JSON. JSON.parse's messages give no position for an unexpected token, so this finds it.
 */
export function syntaxErrorOffset(text: string): number | null {
    let at = 0;
    const fail = (): never => {
        throw new SyntaxOffset(at);
    };
    const space = () => {
        while (at < text.length && " \t\n\r".includes(text[at])) at++;
    };
    const expect = (char: string) => {
        if (text[at] !== char) fail();
        at++;
    };
    const string = () => {
        expect("\"");
        for (;;) {
            if (at >= text.length) fail();
            const char = text[at];
            if (char === "\"") {
                at++;
                return;
            }
            if (char < " ") fail();
            if (char === "\\") {
                at++;
                if (text[at] === "u") {
                    at++;
                    for (let digit = 0; digit < 4; digit++) {
                        if (!/[0-9a-fA-F]/.test(text[at] ?? "")) fail();
                        at++;
                    }
                    continue;
                }
                if (!"\"\\/bfnrt".includes(text[at] ?? "x")) fail();
            }
            at++;
        }
    };
    const digits = () => {
        if (!/[0-9]/.test(text[at] ?? "")) fail();
        while (/[0-9]/.test(text[at] ?? "")) at++;
    };
    const number = () => {
        if (text[at] === "-") at++;
        if (text[at] === "0") at++;
        else digits();
        if (text[at] === ".") {
            at++;
            digits();
        }
        if (text[at] === "e" || text[at] === "E") {
            at++;
            if (text[at] === "+" || text[at] === "-") at++;
            digits();
        }
    };
    const value = (depth: number): void => {
        if (depth > 10_000) fail();
        space();
        const char = text[at];
        if (char === "{" || char === "[") {
            const close = char === "{" ? "}" : "]";
            at++;
            space();
            if (text[at] === close) {
                at++;
                return;
            }
            for (;;) {
                if (close === "}") {
                    space();
                    string();
                    space();
                    expect(":");
                }
                value(depth + 1);
                space();
                if (text[at] === ",") at++;
                else return expect(close);
            }
        }
        if (char === "\"") return string();
        if (char === "-" || /[0-9]/.test(char ?? "")) return number();
        const word = ["true", "false", "null"].find((item) => item[0] === char);
        if (word === undefined) fail();
        for (const letter of word!) expect(letter);
    };
    try {
        value(0);
        space();
        if (at < text.length) fail();
        return null;
    } catch (error) {
        if (error instanceof SyntaxOffset) return Math.min(error.offset, text.length);
        throw error;
    }
}

class SyntaxOffset {
    public constructor(public readonly offset: number) {}
}

/**
 * Refuses, before anything is sent, an output file that could not be written at the end of a run: its folder (or,
 * when `createsFolders`, the nearest folder on its path that exists) must be a folder in which a file can be
 * created (the file is written beside itself and renamed over the old one), and the file itself, when it exists, not a
 * folder. Probes by creating and removing a file in that folder, which
 * also answers for read-only file systems and for a user whose permission bits access() cannot judge (root).
 * Returns the problem in words, or null.
 */
export async function outputPathProblem(filePath: string, options: {createsFolders?: boolean} = {}): Promise<string | null> {
    const target = path.resolve(filePath);
    const existing = await stat(target).catch(() => null);
    if (existing !== null && existing.isDirectory()) return `${filePath} is a folder`;
    let folder = path.dirname(target);
    for (;;) {
        const info = await stat(folder).catch((error: NodeJS.ErrnoException) => error);
        if (!(info instanceof Error)) {
            if (!info.isDirectory()) return `cannot write ${filePath}: ${folder} is a file, not a folder`;
            break;
        }
        if (info.code === "ENOTDIR") {
            folder = path.dirname(folder);
            continue;
        }
        if (info.code !== "ENOENT") return `cannot write ${filePath}: ${info.message}`;
        if (!options.createsFolders) return `cannot write ${filePath}: no folder ${path.dirname(target)}`;
        const parent = path.dirname(folder);
        if (parent === folder) return `cannot write ${filePath}: no folder ${path.dirname(target)}`;
        folder = parent;
    }
    const probe = path.join(folder, `.${path.basename(target)}.${process.pid}.probe`);
    try {
        await (await open(probe, "wx")).close();
    } catch (error) {
        return `cannot write ${filePath}: cannot create a file in ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
    await rm(probe, {force: true});
    return null;
}

/** Writes an experiment file atomically, in the text the app exports (serializeExperimentSpec). */
export async function writeExperimentFile(filePath: string, spec: ExperimentSpec): Promise<void> {
    await writeFileAtomic(filePath, serializeExperimentSpec(spec));
}

/**
 * Reads the CSV or XLSX file a dataset names. An XLSX with several sheets must name one (`sheet`); a file with more
 * rows than a dataset holds is refused before it is read whole; label and input columns must name columns.
 */
export async function readDatasetFile(ref: DatasetFileRef, baseDir: string): Promise<Dataset> {
    const file = path.resolve(baseDir, ref.file);
    try {
        if ((await stat(file)).isDirectory()) throw Object.assign(new Error(file), {code: "EISDIR"});
    } catch (error) {
        throw new ExperimentInputError([{path: "dataset.file", message: fileProblem(file, error)}]);
    }
    let source;
    try {
        source = openSpreadsheetFile(file);
    } catch (error) {
        if (error instanceof RangeError) throw new ExperimentInputError([{path: "dataset.file", message: error.message}]);
        throw error;
    }
    if (source.format === "xlsx" && ref.sheet === undefined) {
        const sheets = await source.sheetNames();
        if (sheets.length > 1)
            throw new ExperimentInputError([{path: "dataset.sheet", message: `${ref.file} has ${sheets.length} sheets (${sheets.map((name) => JSON.stringify(name)).join(", ")}): name the one to use, e.g. "sheet": ${JSON.stringify(sheets[0])}`}]);
    }
    if (source.format === "csv" && ref.sheet !== undefined) throw new ExperimentInputError([{path: "dataset.sheet", message: `${ref.file} is a CSV file, which has no sheets`}]);
    let table;
    try {
        table = await openTable(source, {sheet: ref.sheet});
    } catch (error) {
        if (error instanceof RangeError) throw new ExperimentInputError([{path: "dataset.sheet", message: error.message}]);
        throw error;
    }
    const problems = [...ref.labelColumns.map((name, index) => ["labelColumns", index, name] as const), ...(ref.inputColumns ?? []).map((name, index) => ["inputColumns", index, name] as const)]
        .filter(([, , name]) => !table.columns.includes(name))
        .map(([field, index, name]) => ({path: `dataset.${field}[${index}]`, message: `${ref.file} has no column ${JSON.stringify(name)} (columns: ${table.columns.map((column) => JSON.stringify(column)).join(", ")})`}));
    if (problems.length > 0) throw new ExperimentInputError(problems);
    const rows: SheetRow[] = [];
    for await (const batch of table.batches()) {
        rows.push(...batch.rows);
        if (rows.length > maxDatasetRows)
            throw new ExperimentInputError([{path: "dataset.file", message: `${ref.file} has more than ${maxDatasetRows.toLocaleString("en-US")} rows, the most a dataset holds: sample or split the file first`}]);
    }
    // A CSV's number columns become numbers, as the app's import types them, so both send `"rating": 3`.
    if (source.format === "csv") typeNumberColumns(rows, table.columns.length);
    return datasetFromTable({name: path.basename(file), columns: table.columns, rows, labelColumns: ref.labelColumns, inputColumns: ref.inputColumns});
}
