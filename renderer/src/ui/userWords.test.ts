// The words the app shows are the user's, not the codebase's: no message, title or help text names the API
// specification's sections ("(spec 2.5)", "spec §5"), and no help text only points at another screen's ("As in chat.").
import {test} from "node:test";
import assert from "node:assert/strict";
import {readdirSync, readFileSync} from "node:fs";
import path from "node:path";
import {fileURLToPath} from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

function sources(dir: string): string[] {
    return readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) return sources(file);
        return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
    });
}

/** The file without its comments (block comments and whole-line or trailing `//` comments outside strings). */
function withoutComments(text: string): string {
    return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/\s\/\/ .*$/gm, "");
}

test("no text the app shows names a section of the API specification or only says \"As in chat.\"", () => {
    const found: string[] = [];
    for (const file of sources(root)) {
        withoutComments(readFileSync(file, "utf8")).split("\n").forEach((line, index) => {
            if (/\bspec (§|\d)|As in chat\./.test(line)) found.push(`${path.relative(root, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
});
