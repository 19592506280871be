import {createReadStream} from "node:fs";
import {readFile} from "node:fs/promises";
import path from "node:path";
import type {SourceFiles} from "../importProblems.ts";

// The files an import reads, from disk: a `file://` reference is relative to the file that names it.

export const nodeSourceFiles: SourceFiles = {
    resolve: (fromFile, reference) => path.isAbsolute(reference) ? reference : path.join(path.dirname(fromFile), reference),
    readText: (file) => readFile(file, "utf8"),
    chunks: (file) => createReadStream(file, {highWaterMark: 1 << 16})
};
