import assert from "node:assert/strict";
import {mkdtemp, readdir, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {openSqlite} from "../../base/node/sqlite.ts";
import {appDataLimits, type SavedRun} from "../../protocol/gateway/contract.ts";
import {killWhileWriting} from "../../test/support/appData/killWhileWriting.ts";
import {refusal} from "../../test/support/appData/refusal.ts";
import {AppDataStore} from "./AppDataStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-app-data-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

const run = (id: string, createdAt: number, extra: Record<string, unknown> = {}): SavedRun => ({id, createdAt, kind: "chat", request: {model: "svc-1"}, ...extra});

test("a key or id that is no plain file name is refused with a 400: no way out of the folder", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    const bad = ["", "..", ".", "../x", "a/b", "a\\b", "/etc/passwd", "C:x", ".hidden", "-x", "a b", "é", "x".repeat(129), "trailing.", "NUL", "con.txt", "com1"];
    for (const name of bad) {
        assert.equal(await refusal(data.documents.put(name, 1)), "400 invalid_name", `document ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.documents.remove(name)), "400 invalid_name", `document ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.history.add(run(name, 1))), "400 invalid_name", `run ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.history.remove(name)), "400 invalid_name", `run ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.jobs.getJob(name)), "400 invalid_name", `job ${JSON.stringify(name)}`);
        assert.equal(await refusal(data.jobs.deleteJob(name)), "400 invalid_name", `job ${JSON.stringify(name)}`);
    }
    assert.deepEqual(await readdir(root).then((names) => names.filter((name) => !name.startsWith("case-"))), [], "nothing was written beside the folder");
    for (const name of ["a", "svc-studio-theme", "job-1a2b.c_d", "x".repeat(128), "Nul1", "console"]) await data.documents.put(name, 1);
});

test("sizes are bounded: a run, a table and a row result over their limits are refused with a 413", async () => {
    const data = new AppDataStore(folder());
    assert.equal(await refusal(data.history.add(run("r1", 1, {image: "x".repeat(appDataLimits.maxHistoryEntryBytes)}))), "413 payload_too_large");
    const record = {jobId: "j1", status: "running" as const, totalRows: 1, error: null, createdAt: 1, updatedAt: 1, spec: {columns: ["x"]}};
    assert.equal(await refusal(data.jobs.create(record as never, {rows: ["x".repeat(appDataLimits.maxJobTableBytes)]})), "413 payload_too_large");
    await data.jobs.create(record as never, {rows: [["a"]]});
    assert.equal(await refusal(data.jobs.putResult("j1", {rowIndex: 0, ok: true, response: {answers: {}, text: "x".repeat(appDataLimits.maxRowResultBytes)}} as never)),
        "413 payload_too_large");
    assert.equal(await refusal(data.jobs.putResult("j1", {rowIndex: -1, ok: true} as never)), "400 invalid_request");
    assert.equal(await refusal(data.jobs.putResult("j1", {rowIndex: 0, ok: "yes"} as never)), "400 invalid_request");
    assert.equal(await refusal(data.jobs.create({...record, jobId: "j2", status: "done"} as never, {})), "400 invalid_request");
    assert.equal(await refusal(data.jobs.update("j1", {status: "completed", spec: {}} as never)), "400 invalid_request");
    const tooBig = await data.jobs.create({...record, jobId: "j3"} as never, {rows: ["x".repeat(appDataLimits.maxJobTableBytes)]}).then(() => null, (error: Error) => error.message);
    assert.match(tooBig ?? "", /^the job's table is \d+ bytes; the limit, appDataLimits\.maxJobTableBytes, is \d+ bytes; nothing was saved$/);
    assert.equal(await data.jobs.getJob("j3"), null);
});

test("a crash mid-write leaves the old document or the new one, whole: killed writers", async () => {
    const dir = folder();
    for (let round = 0; round < 3; round++) {
        await killWhileWriting(dir, "document", 30 + round * 40);
        const {big} = await new AppDataStore(dir).documents.all() as {big: {version: number, size: number, filler: string}};
        assert.equal(typeof big.version, "number", `round ${round}: a version was left`);
        assert.equal(big.filler.length, big.size, `round ${round}: version ${big.version} is whole`);
        assert.equal(big.filler, String(big.version % 10).repeat(big.size));
    }
});

test("the runs' and the documents' rows are the JSON the renderer sent (a person can read or back them up)", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    await data.history.add(run("r1", 42, {reply: "hi"}));
    await data.documents.put("svc-studio-theme", {state: {theme: "light"}});
    await data.close();
    const db = openSqlite(path.join(dir, "app.sqlite"), {readOnly: true});
    assert.deepEqual(JSON.parse(db.prepare("SELECT value FROM runs WHERE id = ?").pluck().get("r1") as string), run("r1", 42, {reply: "hi"}));
    assert.equal(db.prepare("SELECT value FROM documents WHERE key = ?").pluck().get("svc-studio-theme"), "{\"state\":{\"theme\":\"light\"}}");
    db.close();
});
