// `svc-studio admin` as a person runs it, against a real data folder: set up a workspace, take a key (its secret
// printed once), serve with it, and read the usage back as a table, CSV and JSON.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {execFile} from "node:child_process";
import {mkdtemp, rm} from "node:fs/promises";
import {tmpdir} from "node:os";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {promisify} from "node:util";
import {startTestServer} from "./utils/startTestServer.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
let dataDir: string;

before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "svc-admin-cli-"));
});
after(async () => {
    await rm(dataDir, {recursive: true, force: true});
});

/** One `svc-studio admin` command; resolves to its stdout, or rejects with its exit code and stderr. */
async function admin(...args: string[]): Promise<string> {
    const {stdout} = await promisify(execFile)(process.execPath, ["--import", "tsx", "native/cli/main.ts", "admin", ...args, "--data-dir", dataDir], {cwd: repoRoot});
    return stdout.trimEnd();
}

async function adminFails(args: string[], pattern: RegExp) {
    await assert.rejects(admin(...args), (error: {code?: number, stderr?: string}) => {
        assert.equal(error.code, 1);
        const lines = error.stderr!.trim().split("\n");
        assert.equal(lines.length, 1, error.stderr);
        assert.match(lines[0], pattern);
        return true;
    });
}

test("from an empty folder to a charged request and its usage report", async () => {
    assert.match(await admin("org", "create", "acme"), /^organization org_\w+ acme$/);
    assert.match(await admin("workspace", "create", "acme", "research"), /not activated, no credit/);
    await adminFails(["workspace", "create", "acme", "research"], /^svc-studio: organization acme has a workspace named "research" already$/);
    assert.match(await admin("workspace", "activate", "acme/research"), /activated at/);
    assert.match(await admin("credits", "add", "research", "12.5"), /balance 12\.50$/);
    await adminFails(["credits", "add", "research", "0.1234567"], /^svc-studio: not an amount: "0\.1234567"/);
    assert.match(await admin("prices", "set", "svc-1", "--input", "3", "--cached-input", "0.5", "--output", "7"), /svc-1\s+3\.00\s+0\.50\s+7\.00/);
    await adminFails(["prices", "set", "svc-1-decision", "--output", "1"], /output tokens are free/);
    assert.match(await admin("limits", "set", "research", "svc-1", "--rpm", "600"), /svc-1\s+600\s+none/);

    const created = await admin("keys", "create", "research", "--name", "ci", "--user", "ada");
    const secret = /^(ck_[0-9a-f]{12}_\S{43})$/m.exec(created)?.[1];
    assert.ok(secret != null, created);
    assert.match(created, /only time the secret is shown/);
    const listing = await admin("keys", "list", "research");
    assert.equal(listing.includes(secret.slice(16)), false, "a listing never shows the secret");
    assert.match(listing, /ci\s+user ada\s+private\s+ck_[0-9a-f]{12}_\s+active/);
    const keyId = JSON.parse(await admin("keys", "list", "--json"))[0].id as string;

    const server = await startTestServer({dataDir, apiKeys: [secret]});
    let usage;
    try {
        usage = (await server.client.chat.completions.create({model: "svc-1", messages: [{role: "user", content: "Hi"}], max_tokens: 3})).usage!;
        assert.match(await admin("keys", "revoke", keyId), /revoked/);
        await assert.rejects(server.client.models.list(), (error: {status?: number}) => error.status === 401, "revoked from another process: refused at once");
    } finally {
        await server.close();
    }

    const cost = Math.ceil(((usage.prompt_tokens - (usage.prompt_tokens_details?.cached_tokens ?? 0)) * 3_000_000 + (usage.prompt_tokens_details?.cached_tokens ?? 0) * 500_000
        + usage.completion_tokens * 7_000_000) / 1_000_000);
    const json = JSON.parse(await admin("usage", "research", "--format", "json"));
    assert.deepEqual(json.groupBy, ["key", "model", "day"]);
    assert.deepEqual(json.rows.map((row: {keyId: string, model: string, requests: number, outputTokens: number, costMicros: number}) =>
        [row.keyId, row.model, row.requests, row.outputTokens, row.costMicros]), [[keyId, "svc-1", 1, usage.completion_tokens, cost]]);
    const csv = (await admin("usage", "--by", "model", "--format", "csv")).split("\r\n");
    assert.deepEqual(csv[0].split(","), ["workspace", "model", "requests", "uncached_input_tokens", "cached_input_tokens", "output_tokens", "cost"]);
    assert.match(csv[1], /^ws_\w+,svc-1,1,\d+,\d+,\d+,0\.\d+$/);
    assert.match(await admin("usage", "--by", "day"), /^workspace\s+day\s+requests/);
    assert.match(await admin("workspace", "list"), new RegExp(`research .*${((12_500_000 - cost) / 1e6).toFixed(6).replace(/0{1,4}$/, "").replace(".", "\\.")}`));
    await adminFails(["usage", "--by", "hour"], /usage groups are key, model, day/);
    await adminFails(["keys", "rotate", "key_missing"], /no key "key_missing"/);
});
