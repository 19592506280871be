import {existsSync} from "node:fs";
import {readFile, writeFile} from "node:fs/promises";
import path from "node:path";
import {fileURLToPath} from "node:url";

/**
 * `patches/llama.cpp+<tag>.diff`: our changes to the llama.cpp source node-llama-cpp bundles (release `<tag>` of its
 * `llama/llama.cpp.info.json`). patch-package cannot carry them, since that source is not in the npm package: node-llama-cpp
 * extracts it from `llama/gitRelease.bundle` when it first builds. `npm run build:engine` applies the diff to that
 * checkout before compiling; the llama.cpp anchors of the benchmarks (`test/support/llamaCpp.ts`) take it out again of
 * their copy, so llama-server and llama-bench stay llama.cpp's own.
 *
 * Hunks apply by exact text, with no fuzz and no git or patch program (the device machines have neither): each hunk's
 * old lines (context and removed) must occur once in the file, or its new lines must (already applied). Anything
 * else is an error naming the file, since a build from a half-patched source would measure something else.
 */
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type DiffHunk = {before: string, after: string};
export type FileDiff = {file: string, hunks: DiffHunk[]};

/** The diff for the bundled llama.cpp release (its file name and text), when the repository has one. */
export async function readLlamaCppPatch(llamaDir = path.join(root, "node_modules/node-llama-cpp/llama")): Promise<{name: string, diff: string} | undefined> {
    const {tag} = JSON.parse(await readFile(path.join(llamaDir, "llama.cpp.info.json"), "utf8")) as {tag: string};
    const file = path.join(root, `patches/llama.cpp+${tag}.diff`);
    return existsSync(file) ? {name: path.basename(file), diff: await readFile(file, "utf8")} : undefined;
}

/** The files and hunks of a unified diff (`git diff` output; paths after `a/` and `b/` are relative to the source root). */
export function parseUnifiedDiff(text: string): FileDiff[] {
    const files: FileDiff[] = [];
    let hunk: {before: string[], after: string[]} | undefined;
    const close = () => {
        if (hunk != null) files.at(-1)!.hunks.push({before: hunk.before.join("\n"), after: hunk.after.join("\n")});
        hunk = undefined;
    };
    for (const line of text.replace(/\n$/, "").split("\n")) {
        if (line.startsWith("diff --git ")) {
            close();
            continue;
        }
        if (line.startsWith("+++ ")) {
            files.push({file: line.slice(4).replace(/^b\//, ""), hunks: []});
            continue;
        }
        if (line.startsWith("@@")) {
            close();
            if (files.length === 0) throw new Error("llama.cpp patch: a hunk before any file header");
            hunk = {before: [], after: []};
            continue;
        }
        if (hunk == null) continue; // "index", "---" and other header lines
        if (line.startsWith("-")) hunk.before.push(line.slice(1));
        else if (line.startsWith("+")) hunk.after.push(line.slice(1));
        else if (line.startsWith(" ") || line === "") {
            hunk.before.push(line.slice(1));
            hunk.after.push(line.slice(1));
        }
    }
    close();
    return files;
}

function occurrences(text: string, part: string): number {
    let count = 0;
    for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) count++;
    return count;
}

/**
 * Applies the diff to the source tree at `sourceDir` (or takes it out, `reverse`), hunk by hunk; a hunk already in the
 * wanted state is left as it is. Returns how many hunks it changed.
 */
export async function applyLlamaCppPatch(sourceDir: string, diff: string, {reverse = false} = {}): Promise<number> {
    let changed = 0;
    for (const {file, hunks} of parseUnifiedDiff(diff)) {
        const target = path.join(sourceDir, file);
        const original = await readFile(target, "utf8");
        let text = original;
        for (const hunk of hunks) {
            const [from, to] = reverse ? [hunk.after, hunk.before] : [hunk.before, hunk.after];
            if (occurrences(text, from) === 1) {
                text = text.replace(from, () => to);
                changed++;
            } else if (occurrences(text, to) !== 1)
                throw new Error(`llama.cpp patch: ${file} matches neither side of a hunk, so the source is not the release the patch was made for`);
        }
        // An unchanged file keeps its time stamp, so cmake does not compile it again.
        if (text !== original) await writeFile(target, text);
    }
    return changed;
}
