import assert from "node:assert/strict";
import {mkdtemp, readFile, rm, stat} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {test} from "node:test";
import {localConnectionId} from "../connections/ConnectionStore.ts";
import {LocalEngineKey} from "../gateway/localEngineKey.ts";
import {WebKeyStore} from "./webKeyStore.ts";

test("browser mode keeps the app's workspace key across a restart of the gateway, and no other key on disk", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "svc-web-keys-"));
    try {
        const secret = `ck_0123456789ab_${"S".repeat(43)}`;
        const first = await WebKeyStore.open(dir);
        const appKey = new LocalEngineKey(first);
        await appKey.set(secret, (id, key) => first.set(id, key));
        await first.set("remote-env", "ck_env_secret_42");
        // A new gateway on the same data folder: the app's key is there, the env remote's is not (it comes from the env).
        const second = await WebKeyStore.open(dir);
        assert.equal(second.get(localConnectionId), secret);
        assert.equal(new LocalEngineKey(second).hint(), "ck_0123456789ab_");
        assert.equal(second.has("remote-env"), false);
        const file = path.join(dir, "web-keys.json");
        assert.doesNotMatch(await readFile(file, "utf8"), /ck_env_secret_42/);
        assert.equal((await stat(file)).mode & 0o777, 0o600, "readable by its owner only");
        await second.delete(localConnectionId);
        assert.equal((await WebKeyStore.open(dir)).has(localConnectionId), false, "Stop using forgets it at the next start too");
    } finally {
        await rm(dir, {recursive: true, force: true});
    }
});
