// "Export all data" and "Import" through real gateways on two data folders: the database copied consistently as one
// file, restored whole in the other folder (whose own file is kept aside), and files that are no backup refused with
// nothing changed.
import assert from "node:assert/strict";
import {mkdtemp, readdir, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {openSqlite} from "../../base/node/sqlite.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {Gateway} from "../gateway/Gateway.ts";
import {MemoryKeyVault} from "../secrets/KeyVault.ts";

const dir = await mkdtemp(path.join(os.tmpdir(), "svc-app-data-backup-"));
const gateways: Gateway[] = [];
after(async () => {
    for (const gateway of gateways) await gateway.close();
    await rm(dir, {recursive: true, force: true});
});

async function start(name: string) {
    const gateway = await Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(),
        vault: new MemoryKeyVault(), rendererDir: dir, appDataDir: path.join(dir, name)});
    gateways.push(gateway);
    const call = (route: string, init: {method?: string, body?: BodyInit, json?: unknown} = {}) => fetch(gateway.url.replace(/\/$/, "") + "/gateway/api" + route, {
        method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
        headers: {"x-gateway-token": gateway.token, ...init.json !== undefined ? {"content-type": "application/json"} : {}},
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body
    });
    return {gateway, call, dataDir: path.join(dir, name)};
}

const fields = {name: "Reviews", columns: ["text", "label"], columnTypes: ["string", "string"], labelColumns: ["label"], inputColumns: ["text"]};

test("Export all data answers the whole database as one file; Import puts it in place of another folder's, kept aside", async () => {
    const source = await start("source");
    assert.equal((await source.call("/app-data/datasets/reviews", {json: {revision: 0, fields, rows: [["good", "yes"], ["bad", "no"]]}})).status, 200);
    assert.equal((await source.call("/app-data/documents/svc-studio-theme?revision=0", {json: {state: {theme: "dark"}}})).status, 200);
    const exported = await source.call("/app-data/backup");
    assert.equal(exported.status, 200);
    assert.match(exported.headers.get("content-disposition") ?? "", /^attachment; filename="svc-studio-data-[\d-]+T[\d-]+Z\.sqlite"$/);
    const bytes = Buffer.from(await exported.arrayBuffer());
    assert.equal(bytes.subarray(0, 16).toString("latin1"), "SQLite format 3\0");
    // The copy is removed once sent (just after the last byte went out).
    for (let wait = 0; (await readdir(source.dataDir)).some((name) => name.includes("backup")); wait++) {
        assert.ok(wait < 100, "the copy is removed once sent");
        await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const target = await start("target");
    assert.equal((await target.call("/app-data/documents/svc-studio-theme?revision=0", {json: {state: {theme: "light"}}})).status, 200);
    const restored = await target.call("/app-data/backup", {method: "POST", body: bytes});
    const answer = await restored.json() as {restored: boolean, keptAs: string};
    assert.equal(restored.status, 200, JSON.stringify(answer));
    assert.match(answer.keptAs, /^app\.sqlite\.replaced-/);
    const {datasets} = await (await target.call("/app-data/datasets")).json() as {datasets: Array<{name: string, rowCount: number}>};
    assert.deepEqual(datasets.map((item) => [item.name, item.rowCount]), [["Reviews", 2]]);
    const {rows} = await (await target.call("/app-data/datasets/reviews/rows?offset=0&limit=10")).json() as {rows: unknown[][]};
    assert.deepEqual(rows, [["good", "yes"], ["bad", "no"]]);
    const {documents} = await (await target.call("/app-data/documents")).json() as {documents: Record<string, unknown>};
    assert.deepEqual(documents["svc-studio-theme"], {state: {theme: "dark"}});
    // The folder's own database is kept aside, whole.
    const kept = openSqlite(path.join(target.dataDir, answer.keptAs), {readOnly: true});
    assert.equal(kept.prepare("SELECT value FROM documents WHERE key = 'svc-studio-theme'").pluck().get(), JSON.stringify({state: {theme: "light"}}));
    kept.close();
});

test("a file that is no backup of this app is refused with a 400 that says what it is, and nothing changes", async () => {
    const target = await start("refusals");
    assert.equal((await target.call("/app-data/datasets/keep", {json: {revision: 0, fields, rows: [["stays", "yes"]]}})).status, 200);
    const refusal = async (body: Buffer) => {
        const answer = await target.call("/app-data/backup", {method: "POST", body: new Uint8Array(body)});
        const {error} = await answer.json() as {error: {code: string, message: string}};
        return `${answer.status} ${error.code}: ${error.message}`;
    };
    assert.match(await refusal(Buffer.from("name,label\nx,y\n")), /^400 invalid_backup: the file is not a Svc Studio data backup: it is not a SQLite database; nothing was changed$/);

    const other = path.join(dir, "other.sqlite");
    const db = openSqlite(other);
    db.exec("CREATE TABLE notes (text TEXT)");
    db.close();
    assert.match(await refusal(await readFile(other)), /^400 invalid_backup: the file is a SQLite database but not a Svc Studio data backup/);

    const newer = path.join(dir, "newer.sqlite");
    const future = openSqlite(newer);
    future.exec("CREATE TABLE schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1, 999)");
    future.close();
    assert.match(await refusal(await readFile(newer)), /^400 invalid_backup: the backup comes from a newer version of the app \(schema version 999/);

    const truncated = path.join(dir, "truncated.sqlite");
    await writeFile(truncated, Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(100)]));
    assert.match(await refusal(await readFile(truncated)), /^400 invalid_backup: /);

    const {datasets} = await (await target.call("/app-data/datasets")).json() as {datasets: Array<{name: string}>};
    assert.deepEqual(datasets.map((item) => item.name), ["Reviews"]);
    assert.deepEqual((await readdir(target.dataDir)).filter((name) => /replaced|restore/.test(name)), [], "nothing was moved, no upload left behind");
});
