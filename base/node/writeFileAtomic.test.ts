import {test} from "node:test";
import assert from "node:assert/strict";
import * as fsPromises from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {type AtomicWriteFs, writeFileAtomic} from "./writeFileAtomic.ts";

/** `node:fs/promises` with each call that matters to durability written to `calls` (paths relative to `root`). */
function recordingFs(root: string, calls: string[]): AtomicWriteFs {
    const name = (target: unknown) => path.relative(root, String(target)).replace(/\.\d+\.\d+\.tmp$/, ".tmp") || ".";
    return {
        mkdir: fsPromises.mkdir,
        rm: fsPromises.rm,
        chmod: async (target, mode) => {
            calls.push(`chmod ${name(target)}`);
            return fsPromises.chmod(target, mode);
        },
        rename: async (from, to) => {
            calls.push(`rename ${name(from)} ${name(to)}`);
            return fsPromises.rename(from, to);
        },
        open: (async (target: string, flags?: string, mode?: number) => {
            const handle = await fsPromises.open(target, flags, mode);
            calls.push(`open ${name(target)}`);
            return Object.assign(Object.create(handle) as fsPromises.FileHandle, {
                writeFile: async (data: string) => {
                    calls.push(`write ${name(target)}`);
                    return handle.writeFile(data);
                },
                sync: async () => {
                    calls.push(`fsync ${name(target)}`);
                    return handle.sync();
                },
                close: async () => {
                    calls.push(`close ${name(target)}`);
                    return handle.close();
                },
            });
        }) as AtomicWriteFs["open"],
    };
}

async function withDir(run: (dir: string) => Promise<void>) {
    const dir = await fsPromises.mkdtemp(path.join(tmpdir(), "svc-atomic-"));
    try {
        await run(dir);
    } finally {
        await fsPromises.rm(dir, {recursive: true, force: true});
    }
}

test("writeFileAtomic syncs the new file before the rename and its folder after it", () => withDir(async (dir) => {
    const calls: string[] = [];
    const target = path.join(dir, "docs", "settings.json");
    await writeFileAtomic(target, "{\"a\": 1}\n", 0o600, {fs: recordingFs(dir, calls), platform: "linux"});
    assert.deepEqual(calls, [
        "open docs/settings.json.tmp",
        "write docs/settings.json.tmp",
        "fsync docs/settings.json.tmp",
        "close docs/settings.json.tmp",
        "chmod docs/settings.json.tmp",
        "rename docs/settings.json.tmp docs/settings.json",
        "open docs",
        "fsync docs",
        "close docs",
    ]);
    assert.equal(await fsPromises.readFile(target, "utf8"), "{\"a\": 1}\n");
    if (process.platform !== "win32") assert.equal((await fsPromises.stat(target)).mode & 0o777, 0o600);
    assert.deepEqual(await fsPromises.readdir(path.dirname(target)), ["settings.json"], "no temporary file is left");
}));

test("writeFileAtomic on Windows syncs the file but does not open the folder, which Windows cannot sync", () => withDir(async (dir) => {
    const calls: string[] = [];
    const target = path.join(dir, "keys.json");
    await writeFileAtomic(target, "{}\n", 0o600, {fs: recordingFs(dir, calls), platform: "win32"});
    assert.ok(calls.includes("fsync keys.json.tmp"));
    assert.ok(calls.indexOf("fsync keys.json.tmp") < calls.indexOf("rename keys.json.tmp keys.json"));
    assert.equal(calls.filter((call) => call.startsWith("open ")).length, 1, calls.join(", "));
    assert.equal(await fsPromises.readFile(target, "utf8"), "{}\n");
}));
