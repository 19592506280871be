// An upgrade as the desktop app's users make it: earlier versions kept their data in the page's own storage
// (localStorage, and IndexedDB for the run history and scoring jobs), under the origin of each launch's port. The
// earlier version's storage is built here as it left it, in a real Chromium profile under two other origins; then this
// version starts on a new port with that profile and moves both in, the newest origin's settings winning, once.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import {mkdtemp, rm, utimes} from "node:fs/promises";
import {createServer, type Server} from "node:http";
import type {AddressInfo} from "node:net";
import os from "node:os";
import path from "node:path";
import {openSqlite} from "../../base/node/sqlite.ts";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {expectText} from "./utils/expect.ts";
import {launchPersistentChromium, noChromium} from "./utils/launchChromium.ts";
import {readDocument} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

/** A page on a loopback port, standing for an earlier version's origin (its gateway served the app there). */
async function earlierOrigin(): Promise<{server: Server, url: string, port: number}> {
    const server = createServer((_req, res) => res.writeHead(200, {"content-type": "text/html"}).end("<!doctype html><title>Svc Studio</title>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const {port} = server.address() as AddressInfo;
    return {server, url: `http://127.0.0.1:${port}/`, port};
}

const job = (jobId: string) => ({jobId, status: "paused", totalRows: 2, error: null, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
    spec: {questionSet: {format: "decisions", name: "tone", questions: []}, input: {kind: "row"}, columns: ["text"], source: {name: "reviews.csv", sheet: null}}});
const table = {fileName: "reviews.csv", format: "csv", sheets: [], sheet: null, header: "auto", headerDetected: true, hasHeader: true, columns: ["text"], rows: [["good"], ["bad"]]};

/**
 * What an earlier version saved, written with its own storage layout (its IndexedDB databases, stores and key paths).
 * Plain JavaScript run in the page: the test's own compiled functions carry helpers the page lacks.
 */
const writeEarlierStorage = `async ({theme, runId, jobId, job, table}) => {
    localStorage.setItem("svc-studio-theme", JSON.stringify({state: {theme}, version: 0}));
    function open(name, upgrade) {
        return new Promise((resolve, reject) => {
            const request = indexedDB.open(name, 1);
            request.onupgradeneeded = () => upgrade(request.result);
            request.onsuccess = () => resolve(request.result);
            request.onerror = () => reject(request.error);
        });
    }
    function put(db, store, values) {
        return new Promise((resolve, reject) => {
            const transaction = db.transaction(store, "readwrite", {durability: "strict"});
            for (const value of values) transaction.objectStore(store).put(value);
            transaction.oncomplete = () => resolve();
            transaction.onerror = () => reject(transaction.error);
        });
    }
    const runs = await open("svc-studio", (db) => db.createObjectStore("runs", {keyPath: "id"}).createIndex("createdAt", "createdAt"));
    // The earlier version's HistoryEntry: id, kind, createdAt, connectionName, connectionKind, request, status, reply, timing.
    await put(runs, "runs", [{id: runId, kind: "chat", createdAt: 1700000000000, connectionName: "Local engine", connectionKind: "local",
        request: {model: "svc-1", messages: [{role: "user", content: "hi"}]}, status: "done", reply: {content: "hello"}, timing: {totalMs: 12}}]);
    runs.close();
    if (jobId === null) return;
    const jobs = await open("svc-studio-jobs", (db) => {
        db.createObjectStore("jobs", {keyPath: "jobId"});
        db.createObjectStore("results", {keyPath: ["jobId", "rowIndex"]});
    });
    await put(jobs, "jobs", [job]);
    await put(jobs, "results", [{jobId, rowIndex: 0, ok: true, response: {answers: {}}}]);
    jobs.close();
    const tables = await open("svc-studio-scoring-tables", (db) => db.createObjectStore("tables", {keyPath: "jobId"}).createIndex("savedAt", "savedAt"));
    await put(tables, "tables", [{jobId, table, savedAt: 1700000000000}]);
    tables.close();
}`;

describe("upgrading from a version that kept its data in the page's storage", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let profile: string;
    let gateway: WebGateway;
    const ports: number[] = [];

    before(async () => {
        ensureRendererBuilt();
        profile = await mkdtemp(path.join(os.tmpdir(), "svc-studio-profile-"));
        // Two launches of the earlier version, on two ports, in one browser profile; the second is the newest.
        const context = await launchPersistentChromium(profile);
        try {
            const page = context.pages()[0] ?? await context.newPage();
            for (const [index, theme] of ["light", "dark"].entries()) {
                const origin = await earlierOrigin();
                ports.push(origin.port);
                await page.goto(origin.url);
                const values = {theme, runId: `run-${index}`, jobId: index === 0 ? "job-1" : null, job: job("job-1"), table};
                await page.evaluate(`(${writeEarlierStorage})(${JSON.stringify(values)})`);
                await new Promise((resolve) => setTimeout(resolve, 50));
                origin.server.close();
            }
        } finally {
            await context.close();
        }
        // The two launches were days apart, as real ones are: the profile's folder times say which origin is newer.
        for (const [index, port] of ports.entries()) {
            const time = new Date(Date.now() - (ports.length - index) * 86_400_000);
            await utimes(path.join(profile, "Default", "IndexedDB", `http_127.0.0.1_${port}.indexeddb.leveldb`), time, time);
        }
        gateway = await startWebGateway({model: await ensureTinyGguf(), args: ["--browser-profile", profile]});
    });

    after(async () => {
        await gateway?.stop();
        await rm(profile, {recursive: true, force: true});
    });

    test("both origins' settings, runs and scoring jobs are moved in at the first start, the newest setting winning, and said so once", async () => {
        const context = await launchPersistentChromium(profile);
        try {
            const page = context.pages()[0] ?? await context.newPage();
            await page.goto(gateway.url);
            const note = page.getByTestId("app-data-problem").filter({hasText: "Moved in from an earlier version"});
            await expectText(note, new RegExp(`^Moved in from an earlier version of the app: 1 setting, 1 run from http://127\\.0\\.0\\.1:${ports[1]}; ` +
                // The older origin's theme is not moved: the newer one's is kept.
                `1 run, 1 scoring job from http://127\\.0\\.0\\.1:${ports[0]}\\.`), {timeoutMs: 30_000});
            // The newest origin's theme: the other origin's did not replace it.
            assert.deepEqual(await readDocument(gateway.dataDir, "svc-studio-theme"), {state: {theme: "dark"}, version: 0});
            assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
            const db = openSqlite(path.join(gateway.dataDir, "app.sqlite"), {readOnly: true});
            try {
                assert.deepEqual((db.prepare("SELECT id FROM runs ORDER BY id").pluck().all()), ["run-0", "run-1"]);
                assert.equal(db.prepare("SELECT count(*) FROM job_results").pluck().get(), 1);
                assert.deepEqual(db.prepare("SELECT port FROM imported_origins ORDER BY port").pluck().all(), [...ports].sort((a, b) => a - b));
            } finally {
                db.close();
            }
            await page.getByTestId("nav-history").click();
            await page.getByTestId("history-row").first().waitFor();
            await page.getByTestId("nav-scoring").click();
            await expectText(page.getByTestId("saved-jobs"), /reviews\.csv/);

            // Once: the next start finds nothing more to move.
            await page.reload();
            await page.locator("main[data-screen]").waitFor();
            await new Promise((resolve) => setTimeout(resolve, 1000));
            assert.equal(await note.count(), 0);
        } finally {
            await context.close();
        }
    });
});
