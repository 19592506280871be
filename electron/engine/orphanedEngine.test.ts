// The engine must not outlive the app: a crashed or force-quit main process cannot stop its child, so the engine
// watches its parent pipe (native/cli/parentPipe.ts) and exits when the pipe ends.
import assert from "node:assert/strict";
import {test} from "node:test";
import {fileURLToPath} from "node:url";
import {isAlive} from "../../test/support/isAlive.ts";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {startProcess} from "../../test/ui/utils/startProcess.ts";

const parentScript = fileURLToPath(new URL("../../test/support/gateway/superviseEngine.ts", import.meta.url));

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        if (condition()) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return condition();
}

test("the engine exits when the process that supervises it is killed with SIGKILL", async () => {
    const parent = await startProcess(parentScript, [await ensureTinyGguf()], /engine pid (\d+) listening on (http:\/\/\S+)/, {timeoutMs: 60_000});
    const enginePid = Number(parent.match[1]);
    try {
        assert.equal((await fetch(`${parent.match[2]}/health`)).status, 200);
        process.kill(parent.child.pid!, "SIGKILL");
        assert.ok(await waitUntil(() => !isAlive(parent.child.pid!), 5_000), "the parent is gone");
        assert.ok(await waitUntil(() => !isAlive(enginePid), 10_000), `the orphaned engine (pid ${enginePid}) still runs 10 s after its parent was killed`);
        await assert.rejects(fetch(`${parent.match[2]}/health`), "nothing serves on the engine's port any more");
    } finally {
        if (isAlive(enginePid)) process.kill(enginePid, "SIGKILL");
        await parent.stop();
    }
});
