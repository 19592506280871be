import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import {createHash} from "node:crypto";
import {mkdtemp, readdir, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {fileURLToPath} from "node:url";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {startModelFileServer, type ModelFileServer} from "../../test/support/startModelFileServer.ts";

const mainPath = fileURLToPath(new URL("./main.ts", import.meta.url));
const gguf = await readFile(await ensureTinyGguf());
const root = await mkdtemp(path.join(os.tmpdir(), "svc-pull-cli-"));
let server: ModelFileServer;

before(async () => {
    server = await startModelFileServer({"/models/tiny-chat.gguf": {body: gguf, chunkBytes: 128 * 1024}});
});
after(async () => {
    await server.close();
    await rm(root, {recursive: true, force: true});
});

/** Runs the CLI as a user does (`npm run pull -- ...` is `tsx native/cli/main.ts pull ...`), stdout not a TTY. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{code: number, stdout: string, stderr: string}> {
    return new Promise((resolve) => {
        execFile(process.execPath, ["--import", "tsx", mainPath, ...args], {env: {...process.env, ...env}, timeout: 60_000}, (error, stdout, stderr) => {
            resolve({code: error == null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr});
        });
    });
}

test("pull downloads into the library with plain progress lines, checks the sha256 and makes it the default", async () => {
    const dir = path.join(root, "library");
    const sha256 = createHash("sha256").update(gguf).digest("hex");
    const result = await cli(["pull", `${server.url}/models/tiny-chat.gguf`, "--sha256", sha256, "--models-dir", dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(await readFile(path.join(dir, "tiny-chat.gguf")), gguf);
    // Not a TTY: whole lines, no carriage returns, ending at 100%.
    assert.doesNotMatch(result.stdout, /\r/);
    assert.match(result.stdout, /^\[#{24}\] 100% {2}\d+(\.\d+)? KiB \/ \d+(\.\d+)? KiB {2}.+\/s/m);
    assert.match(result.stdout, new RegExp(`sha256 ${sha256}`));
    assert.match(result.stdout, /it is the default model/);

    const models = await cli(["models", "--models-dir", dir]);
    assert.equal(models.code, 0, models.stderr);
    assert.match(models.stdout, /^\* tiny-chat\.gguf .*llama .*F32 .*ctx 4096 .*ChatML chat .*serves svc-1$/m);
});

test("pull fails with one clear line and exit 1 (a 404), leaving nothing behind", async () => {
    // The other failures (checksum, HTML, disk full ...) reach the same one-line path; downloadModel.test.ts covers them.
    const dir = path.join(root, "failures");
    const missing = await cli(["pull", `${server.url}/models/nope.gguf`, "--models-dir", dir]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^svc-studio: HTTP 404 for .*nope\.gguf: no such file/m);
    assert.deepEqual(await readdir(dir).catch(() => []), []);
});
