// The app's engine in workspace mode, through the real gateway: a per-launch admin key, held by the gateway alone,
// opens the admin API (so it answers the gateway and no one else, not even a holder of the engine key), and the
// workspace key chosen for the app rides on model requests.
import assert from "node:assert/strict";
import {mkdtemp, readFile, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {ensureTinyGguf} from "../../test/fixtures/gguf/ensureTinyGguf.ts";
import {gatewayRequest} from "../../test/support/gateway/gatewayRequest.ts";
import {safeStorageDouble} from "../../test/support/gateway/safeStorageDouble.ts";
import type {GatewayState} from "../../protocol/gateway/contract.ts";
import type {IssuedKey, UsageRow, Workspace} from "../../protocol/admin/contract.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {KeyVault} from "../secrets/KeyVault.ts";
import {Gateway} from "./Gateway.ts";
import {workspaceKeyHint} from "./localEngineKey.ts";
import {isEngineAdminPath} from "../../protocol/admin/routes.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-local-key-"));
const engine = new EngineSupervisor({modelPath: await ensureTinyGguf(), threads: 1, gpu: "off", dataDir: path.join(dir, "engine")});
const vaultFile = path.join(dir, "keys.json");
let gateway: Gateway;

before(async () => {
    await engine.start();
    gateway = await Gateway.start({
        mode: "electron", supervisor: engine, rendererDir: dir,
        connections: await ConnectionStore.open(path.join(dir, "connections.json")),
        vault: await KeyVault.open({filePath: vaultFile, backend: safeStorageDouble()})
    });
});

after(async () => {
    await gateway?.close();
    await rm(dir, {recursive: true, force: true});
});

async function call<T = unknown>(pathname: string, options: {method?: string, body?: unknown} = {}): Promise<{status: number, body: T}> {
    const answer = await gatewayRequest(gateway.url.replace(/\/$/, "") + pathname, {...options, headers: {"x-gateway-token": gateway.token}});
    return {status: answer.status, body: JSON.parse(answer.body) as T};
}

const chat = () => call<{usage?: {prompt_tokens: number, completion_tokens: number}, error?: {code: string, message: string}}>(
    "/local/svc-1/v1/chat/completions", {body: {model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 4}});
const localProfile = (state: GatewayState) => state.connections.find((connection) => connection.id === "local")!;

test("a workspace key's hint is its public start; admin paths are the engine's own routes", () => {
    assert.equal(workspaceKeyHint("ck_0123456789ab_" + "x".repeat(43)), "ck_0123456789ab_");
    for (const bad of ["", "sk-abc", "ck_", "ck_abc", "ck_abc_", "ck_ab c_def", "0123456789abcdef"]) assert.equal(workspaceKeyHint(bad), undefined, bad);
    assert.ok(isEngineAdminPath("/admin/v1") && isEngineAdminPath("/admin/v1/keys") && isEngineAdminPath("/metrics"));
    assert.ok(!isEngineAdminPath("/admin/v10") && !isEngineAdminPath("/svc-1/v1/chat/completions") && !isEngineAdminPath("/metrics/x"));
});

test("the gateway alone is the engine's admin: a loopback caller without the admin key is refused, with the engine key too", async () => {
    for (const headers of [{}, {Authorization: engine.authorization()}] as Array<Record<string, string>>) {
        const direct = await fetch(`${engine.status().url}/admin/v1/workspaces`, {headers});
        assert.equal(direct.status, 401);
        assert.equal((await direct.json()).error.code, "invalid_api_key");
        assert.equal((await fetch(`${engine.status().url}/metrics`, {headers})).status, 401);
    }
    const viaGateway = await call<{workspaces: Workspace[]}>("/local/admin/v1/workspaces");
    assert.equal(viaGateway.status, 200);
    assert.deepEqual(viaGateway.body.workspaces, []);
    // Before any workspace the launch key still opens the model endpoints.
    assert.equal((await chat()).status, 200);
});

test("in workspace mode the app's requests need the chosen key; revoking it stops them at once", async () => {
    const {body: {organization}} = await call<{organization: {id: string}}>("/local/admin/v1/organizations", {body: {name: "Acme"}});
    const {body: {workspace}} = await call<{workspace: Workspace}>("/local/admin/v1/workspaces", {body: {organizationId: organization.id, name: "Default"}});
    await call(`/local/admin/v1/workspaces/${workspace.id}/activate`, {body: {}});
    await call(`/local/admin/v1/workspaces/${workspace.id}/credits`, {body: {amountMicros: 5_000_000}});
    const issued = await call<IssuedKey>("/local/admin/v1/keys", {body: {workspaceId: workspace.id, name: "app"}});
    assert.equal(issued.status, 201);
    const {secret, key} = issued.body;

    // No key chosen: the engine refuses the launch key on model routes (it is no workspace key), not the admin ones.
    const refused = await chat();
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error?.code, "invalid_api_key");
    assert.equal(localProfile((await call<GatewayState>("/gateway/api/state")).body).hasKey, false);

    const bad = await call<{error: {code: string}}>("/gateway/api/engine/workspace-key", {body: {secret: "not-a-key"}});
    assert.equal(bad.status, 400);
    assert.equal((await call("/gateway/api/engine/workspace-key", {body: {secret, extra: 1}})).status, 400);

    const chosen = await call<GatewayState>("/gateway/api/engine/workspace-key", {body: {secret}});
    assert.equal(chosen.status, 200);
    assert.deepEqual(localProfile(chosen.body), {id: "local", kind: "local", name: "Local engine", hasKey: true, keyHint: key.hint});
    assert.ok(!JSON.stringify(chosen.body).includes(secret.slice(key.hint.length)), "the state never carries the secret");
    assert.ok(!(await readFile(vaultFile, "utf8")).includes(secret.slice(key.hint.length)), "the vault file holds it encrypted");

    const answered = await chat();
    assert.equal(answered.status, 200);
    const usage = await call<{rows: UsageRow[]}>("/local/admin/v1/usage", {body: {workspaceId: workspace.id, groupBy: ["key"]}});
    assert.equal(usage.body.rows.length, 1);
    assert.equal(usage.body.rows[0].keyId, key.id);
    assert.equal(usage.body.rows[0].uncachedInputTokens + usage.body.rows[0].cachedInputTokens, answered.body.usage!.prompt_tokens);
    assert.equal(usage.body.rows[0].outputTokens, answered.body.usage!.completion_tokens);

    await call(`/local/admin/v1/keys/${key.id}/revoke`, {body: {}});
    const revoked = await chat();
    assert.equal(revoked.status, 401);
    assert.match(revoked.body.error!.message, /revoked/);

    const cleared = await call<GatewayState>("/gateway/api/engine/workspace-key", {method: "DELETE"});
    assert.deepEqual(localProfile(cleared.body), {id: "local", kind: "local", name: "Local engine", hasKey: false});
    assert.equal((await chat()).status, 401);
});
