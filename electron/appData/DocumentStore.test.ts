// The documents in the app's database (app.sqlite), against a real SQLite file in a temporary folder.
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {mkdir, mkdtemp, readdir, readFile, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {fileURLToPath} from "node:url";
import {openSqlite} from "../../base/node/sqlite.ts";
import {toApiError} from "../../native/http/replies.ts";
import {AppDatabase, appDatabaseFile, appDatabaseMigrations} from "./AppDatabase.ts";
import {AppDataStore} from "./AppDataStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-app-db-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
const opened: AppDataStore[] = [];
/** A store on `dir`, closed when the tests end. */
const storeOn = (dir: string, options?: ConstructorParameters<typeof AppDataStore>[1]) => {
    const store = new AppDataStore(dir, options);
    opened.push(store);
    return store;
};
after(async () => {
    for (const store of opened) await store.close();
    await rm(root, {recursive: true, force: true});
});

/** The status, code and envelope the gateway answers a refused call with. */
async function refusal(promise: Promise<unknown>): Promise<{status: number, code: string, envelope: {error: Record<string, unknown>}}> {
    try {
        await promise;
    } catch (error) {
        const apiError = toApiError(error);
        return {status: apiError.status, code: apiError.code, envelope: apiError.toEnvelope() as never};
    }
    assert.fail("the call was not refused");
}

/** The rows of a table of the database file, read through a connection of its own (as another process would). */
function rowsOf(dir: string, sql: string): Array<Record<string, unknown>> {
    const db = openSqlite(path.join(dir, appDatabaseFile), {readOnly: true});
    try {
        return db.prepare(sql).all().map((row) => ({...row}));
    } finally {
        db.close();
    }
}

test("the database: one app.sqlite in the data folder, WAL, synchronous FULL, at the last schema version", async () => {
    const dir = folder();
    const store = storeOn(dir);
    assert.deepEqual(await store.documents.read(), {documents: {}, revisions: {}, problems: []});
    assert.ok((await readdir(dir)).includes("app.sqlite"));
    const database = await AppDatabase.open(dir);
    try {
        assert.equal(database.pragma("journal_mode"), "wal");
        assert.equal(database.pragma("synchronous"), 2, "FULL: a committed write is synced to the disk");
        assert.equal(database.schemaVersion(), appDatabaseMigrations.length);
    } finally {
        database.close();
    }
    assert.deepEqual(rowsOf(dir, "SELECT version FROM schema_version"), [{version: appDatabaseMigrations.length}]);
    // A file from a newer version of the app is refused, not guessed at.
    const older = await refusal(AppDatabase.open(dir, {migrations: appDatabaseMigrations.slice(0, -1)}));
    assert.deepEqual([older.status, older.code], [500, "app_database_too_new"]);
});

test("a write is committed when it answers: another connection reads it at once, and a process killed right after the answer kept it", async () => {
    const dir = folder();
    const store = storeOn(dir);
    const {revision} = await store.documents.put("svc-studio-theme", {state: {theme: "light"}, version: 0});
    assert.deepEqual(rowsOf(dir, "SELECT key, value, revision FROM documents"), [{key: "svc-studio-theme", value: "{\"state\":{\"theme\":\"light\"},\"version\":0}", revision}]);

    // A writer process SIGKILLed as soon as it has printed that its save answered: no close, no checkpoint.
    const killed = folder();
    const script = fileURLToPath(new URL("../../test/support/appData/saveThenWait.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, killed], {stdio: ["ignore", "pipe", "inherit"]});
    await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
            if (chunk.toString().includes("saved")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`the writer exited (${code}) before it saved`)));
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    assert.deepEqual(await storeOn(killed).documents.all(), {"last-save": {saved: "before the kill"}});
});

test("revisions: every write names the one it is based on; a stale one (a second window) is refused with a 409 and nothing is lost", async () => {
    const store = storeOn(folder());
    const first = await store.documents.put("svc-studio-presets", {presets: ["a"]}, {revision: 0});
    assert.deepEqual(first, {saved: true, revision: 1});
    // Two windows read revision 1; the first one's write goes in, the second one's, based on 1 too, is refused.
    const windowA = await store.documents.put("svc-studio-presets", {presets: ["a", "from A"]}, {revision: 1, writer: {id: "window-a", sequence: 1}});
    assert.equal(windowA.saved, true);
    const refused = await refusal(store.documents.put("svc-studio-presets", {presets: ["a", "from B"]}, {revision: 1, writer: {id: "window-b", sequence: 1}}));
    assert.deepEqual([refused.status, refused.code], [409, "revision_conflict"]);
    assert.deepEqual(refused.envelope, {error: {
        message: `document svc-studio-presets was changed by another window: it is at revision ${windowA.revision}, this write is based on revision 1; nothing was changed`,
        type: "invalid_request_error", code: "revision_conflict", revision: windowA.revision}});
    assert.deepEqual(await store.documents.read(), {documents: {"svc-studio-presets": {presets: ["a", "from A"]}}, revisions: {"svc-studio-presets": windowA.revision}, problems: []});
    // A write of what the database holds already changes nothing and is refused by no one, whatever it is based on.
    assert.deepEqual(await store.documents.put("svc-studio-presets", {presets: ["a", "from A"]}, {revision: 1, writer: {id: "window-b", sequence: 1}}),
        {saved: true, revision: windowA.revision});
    // B, told the revision the database holds, may keep its own version: based on that one, its write goes in.
    const kept = await store.documents.put("svc-studio-presets", {presets: ["a", "from B"]}, {revision: windowA.revision, writer: {id: "window-b", sequence: 2}});
    assert.ok(kept.revision > windowA.revision);

    // A new key: absent and 0 both say "new"; a write that calls an existing key new is refused.
    assert.equal((await refusal(store.documents.put("svc-studio-presets", {}))).code, "revision_conflict");
    // A deletion based on an old revision is refused too; one based on the current revision goes in.
    assert.equal((await refusal(store.documents.remove("svc-studio-presets", {revision: 1}))).code, "revision_conflict");
    assert.equal(await store.documents.remove("svc-studio-presets", {revision: kept.revision}), true);
    // Made again, the key never gets back a revision a window may still hold.
    const remade = await store.documents.put("svc-studio-presets", {presets: []}, {revision: 0});
    assert.ok(remade.revision > kept.revision);
    const gone = await refusal(store.documents.put("svc-studio-presets", {}, {revision: kept.revision}));
    assert.equal(gone.code, "revision_conflict");
});

test("one window's own writes may overtake each other (a closing page sends at once): never refused, the newest kept", async () => {
    const store = storeOn(folder());
    const {revision} = await store.documents.put("draft", {n: 0});
    // Forty writes sent at once, all based on the revision the page read; applied in the order they arrive.
    const writes = Array.from({length: 40}, (_, index) => store.documents.put("draft", {n: index + 1}, {revision, writer: {id: "page", sequence: index + 1}}));
    assert.ok((await Promise.all(writes)).every((answer) => answer.saved));
    assert.deepEqual(await store.documents.all(), {draft: {n: 40}});
    // An older write that arrives after a newer one of the same page is dropped, not applied over it.
    const newer = await store.documents.put("draft", {n: "newer"}, {revision, writer: {id: "page", sequence: 50}});
    const older = await store.documents.put("draft", {n: "older"}, {revision, writer: {id: "page", sequence: 45}});
    assert.deepEqual(older, {saved: false, revision: newer.revision});
    assert.deepEqual(await store.documents.all(), {draft: {n: "newer"}});
    // Another page based on the same old revision is still refused.
    assert.equal((await refusal(store.documents.put("draft", {n: "other"}, {revision, writer: {id: "other-page", sequence: 99}}))).code, "revision_conflict");
});

test("no limit on the number of documents: 20 new keys written at once beside 999 others are all stored", async () => {
    const dir = folder();
    const store = storeOn(dir);
    for (let index = 0; index < 999; index++) await store.documents.put(`doc-${index}`, index);
    const answers = await Promise.all(Array.from({length: 20}, (_, index) => store.documents.put(`new-${index}`, {index})));
    assert.equal(new Set(answers.map((answer) => answer.revision)).size, 20, "each its own revision");
    assert.equal(Object.keys(await storeOn(dir).documents.all()).length, 1019);
    // Nor on a document's size beyond the request's: 6 MB of text, stored and read back whole.
    const big = "é".repeat(3 * 1024 * 1024);
    await store.documents.put("big", big);
    assert.equal((await storeOn(dir).documents.all()).big, big);
});

test("reopened after close, the database holds every document with its revision", async () => {
    const dir = folder();
    const store = new AppDataStore(dir);
    await store.documents.put("svc-studio-theme", {state: {theme: "light"}, version: 0});
    const presets = await store.documents.put("svc-studio-presets", {state: {presets: [{id: "p1", name: "Précis ✓"}]}, version: 0});
    const theme = await store.documents.put("svc-studio-theme", {state: {theme: "dark"}, version: 0}, {revision: 1});
    await store.close();
    const reopened = storeOn(dir);
    assert.deepEqual(await reopened.documents.read(), {
        documents: {"svc-studio-presets": {state: {presets: [{id: "p1", name: "Précis ✓"}]}, version: 0}, "svc-studio-theme": {state: {theme: "dark"}, version: 0}},
        revisions: {"svc-studio-presets": presets.revision, "svc-studio-theme": theme.revision},
        problems: []
    });
});

test("migration: the old documents folder moves into the table in one go and is renamed aside; a file that does not parse is kept there and reported", async () => {
    const dir = folder();
    const legacy = path.join(dir, "documents");
    await mkdir(legacy, {recursive: true});
    await writeFile(path.join(legacy, "svc-studio-theme.json"), "{\"state\":{\"theme\":\"light\"},\"version\":0}\n");
    await writeFile(path.join(legacy, "svc-studio-presets.json"), JSON.stringify({state: {presets: [{id: "p", name: "Kept ✓"}]}, version: 0}));
    await writeFile(path.join(legacy, "svc-studio-question-set.json"), "{\"state\": {\"name\": \"cut off");
    // What a crash left of an atomic write: never a document.
    await writeFile(path.join(legacy, "svc-studio-theme.json.4242.1700000000000.tmp"), "{");

    const read = await storeOn(dir).documents.read();
    assert.deepEqual(read.documents, {"svc-studio-presets": {state: {presets: [{id: "p", name: "Kept ✓"}]}, version: 0}, "svc-studio-theme": {state: {theme: "light"}, version: 0}});
    assert.deepEqual(Object.keys(read.revisions).sort(), ["svc-studio-presets", "svc-studio-theme"]);
    const names = await readdir(dir);
    assert.ok(!names.includes("documents"), "the old folder is gone from its place");
    const aside = names.filter((name) => /^documents\.migrated-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(name));
    assert.equal(aside.length, 1, `moved aside: ${names.join(", ")}`);
    assert.deepEqual((await readdir(path.join(dir, aside[0]))).sort(),
        ["svc-studio-presets.json", "svc-studio-question-set.json", "svc-studio-theme.json", "svc-studio-theme.json.4242.1700000000000.tmp"], "nothing is deleted");
    assert.equal(await readFile(path.join(dir, aside[0], "svc-studio-question-set.json"), "utf8"), "{\"state\": {\"name\": \"cut off");
    assert.deepEqual(read.problems, [`1 saved document could not be read and was kept in ${path.join(dir, aside[0])} (svc-studio-question-set).`]);
    assert.deepEqual(rowsOf(dir, "SELECT key, value, kept_in FROM documents_unreadable"),
        [{key: "svc-studio-question-set", value: "{\"state\": {\"name\": \"cut off", kept_in: `${aside[0]}/svc-studio-question-set.json`}]);

    // The next launch imports nothing again, and says the same until the page acknowledges it.
    const next = storeOn(dir);
    assert.deepEqual((await next.documents.read()).problems, read.problems);
    assert.equal(await next.documents.acknowledgeProblems(), 1);
    assert.deepEqual(await next.documents.read(), {...read, problems: []});
    assert.equal(rowsOf(dir, "SELECT count(*) AS n FROM imported_folders")[0].n, 1);
});

test("migration after a crash between the rename and the import: the folder moved aside is imported at the next start", async () => {
    const dir = folder();
    const aside = path.join(dir, "documents.migrated-2020-01-01T00-00-00-000Z");
    await mkdir(aside, {recursive: true});
    await writeFile(path.join(aside, "svc-studio-theme.json"), JSON.stringify({state: {theme: "light"}}));
    assert.deepEqual(await storeOn(dir).documents.all(), {"svc-studio-theme": {state: {theme: "light"}}});
    assert.deepEqual(await readdir(dir).then((names) => names.filter((name) => name.startsWith("documents"))), ["documents.migrated-2020-01-01T00-00-00-000Z"]);
});

test("a stored value that does not parse is left out and reported; a save over it keeps its text in documents_unreadable first", async () => {
    const dir = folder();
    const store = storeOn(dir);
    await store.documents.put("svc-studio-theme", {state: {theme: "light"}});
    const {revision} = await store.documents.put("svc-studio-question-set", {state: {name: "mine"}});
    // Damaged outside the app (a disk fault, a hand edit).
    const db = openSqlite(path.join(dir, appDatabaseFile));
    db.prepare("UPDATE documents SET value = ? WHERE key = ?").run("{\"state\": {\"name\": \"mi", "svc-studio-question-set");
    db.close();

    const read = await store.documents.read();
    assert.deepEqual(read.documents, {"svc-studio-theme": {state: {theme: "light"}}});
    assert.equal(read.revisions["svc-studio-question-set"], revision, "its revision is there: a save over it is based on it");
    assert.equal(read.problems.length, 1);
    assert.match(read.problems[0], /^1 saved document in the app's database could not be read and was left out \(svc-studio-question-set\)/);

    // The page, which started without it, saves its own over it: accepted, the unreadable text kept aside and reported.
    await store.documents.put("svc-studio-question-set", {state: {name: "new"}}, {revision});
    assert.deepEqual(rowsOf(dir, "SELECT key, value, revision FROM documents_unreadable"), [{key: "svc-studio-question-set", value: "{\"state\": {\"name\": \"mi", revision}]);
    const after = await store.documents.read();
    assert.deepEqual(after.documents["svc-studio-question-set"], {state: {name: "new"}});
    assert.deepEqual(after.problems, [`1 saved document that could not be read was saved over (svc-studio-question-set): the earlier text is kept in ${path.join(dir, appDatabaseFile)}, table documents_unreadable.`]);
});

test("a SQLite binding that does not load is a 503 that says so, on the calls of the app's database; the next call tries again", async () => {
    const dir = folder();
    let fail = true;
    const store = storeOn(dir, {loadSqlite: async () => {
        if (fail) throw new Error("Cannot find module '@photostructure/sqlite/build/Release/sqlite.node'");
        return await import("@photostructure/sqlite");
    }});
    const call = {params: {}, query: new URLSearchParams(), readBody: async () => ({})};
    const refused = await refusal(store.handlers.appDocuments!(call));
    assert.equal(refused.status, 503);
    assert.equal(refused.code, "app_database_unavailable");
    assert.match(String(refused.envelope.error.message), /the app's database could not be opened: its SQLite binding \(@photostructure\/sqlite\) did not load \(Cannot find module/);
    // The run history is in the app's database too: refused the same way, then read once the binding loads.
    assert.equal((await refusal(store.handlers.runHistory!(call))).code, "app_database_unavailable");
    fail = false;
    assert.deepEqual((await store.handlers.appDocuments!(call)).body, {documents: {}, revisions: {}, problems: []});
    assert.deepEqual((await store.handlers.runHistory!(call)).body, {entries: [], next: null, total: 0, problems: []});
});
