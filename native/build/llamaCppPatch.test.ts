import {test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, mkdir, readFile, stat, utimes, writeFile} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {applyLlamaCppPatch, parseUnifiedDiff, readLlamaCppPatch} from "./llamaCppPatch.ts";

const original = ["int f() {", "    int a = 1;", "    int b = 2;", "", "    return a + b;", "}", "", "int g() {", "    return 3;", "}", ""].join("\n");
const patched = ["int f() {", "    int a = 1;", "    int b = 20;", "", "    return a + b;", "}", "", "int g() {", "    // why", "    return 3;", "}", ""].join("\n");
const diff = `diff --git a/src/f.cpp b/src/f.cpp
index 1111111..2222222 100644
--- a/src/f.cpp
+++ b/src/f.cpp
@@ -1,5 +1,5 @@
 int f() {
     int a = 1;
-    int b = 2;
+    int b = 20;
 
     return a + b;
@@ -8,3 +8,4 @@ int f() {
 int g() {
+    // why
     return 3;
 }
`;

async function tree(text: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "llama-patch-"));
    await mkdir(path.join(dir, "src"));
    await writeFile(path.join(dir, "src/f.cpp"), text);
    return dir;
}

test("a unified diff applies hunk by hunk, again without change, and comes out again", async () => {
    assert.deepEqual(parseUnifiedDiff(diff).map(({file, hunks}) => [file, hunks.length]), [["src/f.cpp", 2]]);
    const dir = await tree(original);
    assert.equal(await applyLlamaCppPatch(dir, diff), 2);
    assert.equal(await readFile(path.join(dir, "src/f.cpp"), "utf8"), patched);
    const day = new Date("2026-01-01T00:00:00Z");
    await utimes(path.join(dir, "src/f.cpp"), day, day);
    assert.equal(await applyLlamaCppPatch(dir, diff), 0, "already applied");
    assert.equal((await stat(path.join(dir, "src/f.cpp"))).mtimeMs, day.getTime(), "an unchanged file is not written again");
    assert.equal(await applyLlamaCppPatch(dir, diff, {reverse: true}), 2);
    assert.equal(await readFile(path.join(dir, "src/f.cpp"), "utf8"), original);
    assert.equal(await applyLlamaCppPatch(dir, diff, {reverse: true}), 0, "already taken out");
});

test("a source that matches neither side of a hunk is refused, naming the file", async () => {
    const dir = await tree(original.replace("int a = 1;", "int a = 7;"));
    await assert.rejects(applyLlamaCppPatch(dir, diff), /src\/f\.cpp matches neither side of a hunk/);
});

test("the repository's llama.cpp diff parses into hunks for the bundled release", async () => {
    const patch = await readLlamaCppPatch();
    assert.ok(patch != null, "patches/llama.cpp+<tag>.diff for node-llama-cpp's bundled release");
    const files = parseUnifiedDiff(patch.diff);
    assert.deepEqual(files.map(({file}) => file), ["src/llama-kv-cache.cpp", "src/llama-kv-cache.h"]);
    for (const {hunks} of files) for (const hunk of hunks) assert.notEqual(hunk.before, hunk.after);
});
