import assert from "node:assert/strict";
import {request} from "node:http";
import {mkdir, mkdtemp, readdir, rm, writeFile} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, before, test} from "node:test";
import {appDataLimits} from "../../protocol/gateway/contract.ts";
import {openSqlite} from "../../base/node/sqlite.ts";
import {writeOldJob, writeOldRun} from "../../test/support/appData/oldItemFolders.ts";
import {gatewayRequest, type GatewayAnswer} from "../../test/support/gateway/gatewayRequest.ts";
import {ConnectionStore} from "../connections/ConnectionStore.ts";
import {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {Gateway} from "../gateway/Gateway.ts";
import {MemoryKeyVault} from "../secrets/KeyVault.ts";

// The app-data routes through a real gateway (no engine is needed: none is started).
const dir = await mkdtemp(path.join(os.tmpdir(), "svc-app-data-routes-"));
const dataDir = path.join(dir, "app-data");
let gateway: Gateway;

const start = (appDataDir = dataDir) => Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(),
    vault: new MemoryKeyVault(), rendererDir: dir, appDataDir});

before(async () => {
    gateway = await start();
});

after(async () => {
    await gateway?.close();
    await rm(dir, {recursive: true, force: true});
});

/** A call as the renderer makes it: our Host, the token, JSON. */
function call(pathname: string, options: {method?: string, body?: unknown, headers?: Record<string, string>} = {}, on = gateway): Promise<GatewayAnswer> {
    return gatewayRequest(on.url.replace(/\/$/, "") + "/gateway/api" + pathname, {...options, headers: {"x-gateway-token": on.token, ...options.headers}});
}

async function json<T>(answer: Promise<GatewayAnswer>, status = 200): Promise<T> {
    const {status: got, body} = await answer;
    assert.equal(got, status, body);
    return JSON.parse(body) as T;
}

const errorOf = async (answer: Promise<GatewayAnswer>) => {
    const {status, body} = await answer;
    const {error} = JSON.parse(body) as {error: {code: string, type: string, message: string}};
    return {status, code: error.code, message: error.message};
};

const record = (jobId: string, createdAt: number) => ({jobId, status: "running", totalRows: 3, error: null, createdAt, updatedAt: createdAt,
    spec: {questionSet: {format: "decisions", name: "q", questions: []}, input: {kind: "row"}, columns: ["text"], source: {name: "t.csv", sheet: null}}});
const table = {fileName: "t.csv", format: "csv", sheets: [], sheet: null, header: "auto", headerDetected: true, hasHeader: true, columns: ["text"], rows: [["a"], ["b"], ["c"]]};

test("the app-data routes need the launch token, as every gateway API route", async () => {
    for (const pathname of ["/app-data/documents", "/app-data/history", "/app-data/scoring-jobs"]) {
        const answer = await gatewayRequest(gateway.url.replace(/\/$/, "") + "/gateway/api" + pathname);
        assert.equal(answer.status, 403, pathname);
        assert.equal(JSON.parse(answer.body).error.code, "invalid_gateway_token");
    }
});

test("documents: saved, read back all at once with their revisions, replaced, deleted; a second gateway on another port reads the same folder", async () => {
    assert.deepEqual(await json(call("/app-data/documents")), {documents: {}, revisions: {}, problems: []});
    const theme = {state: {theme: "light"}, version: 0};
    assert.deepEqual(await json(call("/app-data/documents/svc-studio-theme", {method: "POST", body: theme})), {saved: true, revision: 1});
    assert.deepEqual(await json(call("/app-data/documents/svc-studio-presets?revision=0", {method: "POST", body: {state: {presets: []}, version: 0}})), {saved: true, revision: 2});
    await json(call("/app-data/documents/svc-studio-presets?revision=2", {method: "POST", body: {state: {presets: [{id: "p", name: "n"}]}, version: 0}}));
    assert.deepEqual(await json(call("/app-data/documents")), {
        documents: {"svc-studio-presets": {state: {presets: [{id: "p", name: "n"}]}, version: 0}, "svc-studio-theme": theme},
        revisions: {"svc-studio-presets": 3, "svc-studio-theme": 1},
        problems: []
    });

    // The next launch: a new gateway, a new port (so a new origin for the page), the same data folder.
    const next = await start();
    try {
        assert.notEqual(next.port, gateway.port);
        assert.deepEqual((await json<{documents: Record<string, unknown>}>(call("/app-data/documents", {}, next))).documents["svc-studio-theme"], theme);
    } finally {
        await next.close({stopEngine: false});
    }
    assert.deepEqual(await json(call("/app-data/documents/svc-studio-presets?revision=3", {method: "DELETE"})), {deleted: true});
    assert.deepEqual(Object.keys((await json<{documents: object}>(call("/app-data/documents"))).documents), ["svc-studio-theme"]);
});

test("a key or id that could leave the folder is a 400, encoded or not; nothing is written outside it", async () => {
    for (const [method, pathname] of [["POST", "/app-data/documents/..%2F..%2Fescape"], ["POST", "/app-data/documents/a%5Cb"],
        ["DELETE", "/app-data/documents/.hidden"], ["DELETE", "/app-data/history/..%2Fx"], ["GET", "/app-data/scoring-jobs/%2E%2E%2Fapp-data"],
        ["POST", "/app-data/scoring-jobs/..%2F..%2Fx/results"], ["DELETE", "/app-data/scoring-jobs/%252e%252e"], ["POST", "/app-data/documents/bad%ZZ"]] as const) {
        const error = await errorOf(call(pathname, {method, body: method === "POST" ? {rowIndex: 0, ok: true} : undefined}));
        assert.deepEqual([error.status, error.code], [400, "invalid_name"], `${method} ${pathname}: ${error.message}`);
    }
    const error = await errorOf(call("/app-data/history", {method: "POST", body: {id: "../../x", createdAt: 1}}));
    assert.deepEqual([error.status, error.code], [400, "invalid_name"]);
    // A `%2e%2e` segment is resolved by the URL parser before routing: it reaches no handler at all.
    assert.equal((await errorOf(call("/app-data/documents/%2e%2e", {method: "POST", body: {}}))).status, 404);
    assert.deepEqual((await readdir(dir)).sort(), ["app-data"], "nothing beside the data folder");
});

test("bodies: the app-data routes take more than the API's 64 KB, within their own bounds; other routes keep 64 KB", async () => {
    const image = "data:image/png;base64," + "A".repeat(2 * 1024 * 1024);
    assert.deepEqual(await json(call("/app-data/history", {method: "POST", body: {id: "with-image", createdAt: 5, request: {image}}})), {saved: true});
    const [entry] = (await json<{entries: Array<{request: {image: string}}>}>(call("/app-data/history"))).entries;
    assert.equal(entry.request.image, image);
    assert.equal((await errorOf(call("/engine/start", {method: "POST", body: {modelPath: "x".repeat(70 * 1024)}}))).status, 413, "the other routes still refuse 70 KB");
    // Strings are sent as they are: these are JSON strings. A document has no bound of its own: 6 MB is stored.
    const big = "x".repeat(6 * 1024 * 1024);
    await json(call("/app-data/documents/big", {method: "POST", body: JSON.stringify(big)}));
    assert.equal((await json<{documents: {big: string}}>(call("/app-data/documents"))).documents.big, big);
    // The request's body limit, checked before anything is read or written, says which setting it is.
    // Declared over the limit: refused before a byte of the body is read (so no 64 MB need be sent).
    const tooBig = await errorOf(new Promise<GatewayAnswer>((resolve, reject) => {
        const req = request(new URL(gateway.url.replace(/\/$/, "") + "/gateway/api/app-data/documents/too-big"), {method: "POST",
            headers: {"x-gateway-token": gateway.token, "content-type": "application/json", "content-length": appDataLimits.maxDocumentRequestBytes + 1}}, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
                resolve({status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8")});
                req.destroy();
            });
        });
        req.on("error", reject);
        req.write("\"xxxx");
    }));
    assert.deepEqual([tooBig.status, tooBig.code], [413, "payload_too_large"]);
    assert.equal(tooBig.message, `document too-big is over the gateway's request body limit for one document, appDataLimits.maxDocumentRequestBytes (${appDataLimits.maxDocumentRequestBytes} bytes); nothing was changed`);
    assert.equal(Object.hasOwn((await json<{documents: object}>(call("/app-data/documents"))).documents, "too-big"), false);
    const malformed = await errorOf(call("/app-data/documents/x", {method: "POST", body: "{\"state\":"}));
    assert.deepEqual([malformed.status, malformed.code], [400, "invalid_request"]);
});

test("two windows edit one document: the second write, based on the revision both read, is a 409 with the revision held; nothing is lost", async () => {
    const first = await json<{revision: number}>(call("/app-data/documents/svc-studio-question-set", {method: "POST", body: {state: {name: "read by both"}}}));
    // Two windows of two gateways on the one folder (two launches at once), each its own writer.
    const other = await start();
    try {
        const windowA = await json<{saved: boolean, revision: number}>(call(`/app-data/documents/svc-studio-question-set?revision=${first.revision}&writer=window-a&sequence=1`,
            {method: "POST", body: {state: {name: "from A"}}}));
        const windowB = await call(`/app-data/documents/svc-studio-question-set?revision=${first.revision}&writer=window-b&sequence=1`,
            {method: "POST", body: {state: {name: "from B"}}}, other);
        assert.equal(windowB.status, 409);
        assert.deepEqual(JSON.parse(windowB.body), {error: {
            message: `document svc-studio-question-set was changed by another window: it is at revision ${windowA.revision}, this write is based on revision ${first.revision}; nothing was changed`,
            type: "invalid_request_error", code: "revision_conflict", revision: windowA.revision}});
        const read = await json<{documents: Record<string, unknown>, revisions: Record<string, number>}>(call("/app-data/documents", {}, other));
        assert.deepEqual([read.documents["svc-studio-question-set"], read.revisions["svc-studio-question-set"]], [{state: {name: "from A"}}, windowA.revision]);
        // A deletion based on the old revision is refused as well.
        assert.equal((await errorOf(call(`/app-data/documents/svc-studio-question-set?revision=${first.revision}`, {method: "DELETE"}, other))).code, "revision_conflict");
    } finally {
        await other.close({stopEngine: false});
    }
    for (const query of ["revision=-1", "revision=1.5", "revision=x", "writer=a", "writer=a%2Fb&sequence=1", "sequence=1"]) {
        const error = await errorOf(call(`/app-data/documents/svc-studio-question-set?${query}`, {method: "POST", body: {}}));
        assert.deepEqual([error.status, error.code], [400, "invalid_request"], query);
    }
});

test("documents that could not be read are reported with the documents until the page acknowledges them", async () => {
    const folder = path.join(dir, "legacy");
    await mkdir(path.join(folder, "documents"), {recursive: true});
    await writeFile(path.join(folder, "documents", "svc-studio-theme.json"), "{\"state\":{\"theme\":\"light\"}}");
    await writeFile(path.join(folder, "documents", "svc-studio-presets.json"), "not json");
    const legacy = await start(folder);
    try {
        const read = await json<{documents: object, problems: string[]}>(call("/app-data/documents", {}, legacy));
        assert.deepEqual(read.documents, {"svc-studio-theme": {state: {theme: "light"}}});
        const aside = (await readdir(folder)).find((name) => name.startsWith("documents.migrated-"));
        assert.deepEqual(read.problems, [`1 saved document could not be read and was kept in ${path.join(folder, aside!)} (svc-studio-presets).`]);
        assert.deepEqual(await json(call("/app-data/document-problems/acknowledge", {method: "POST", body: {}}, legacy)), {acknowledged: 1});
        assert.deepEqual((await json<{problems: string[]}>(call("/app-data/documents", {}, legacy))).problems, []);
    } finally {
        await legacy.close({stopEngine: false});
    }
});

test("an upgrade through the gateway: the old history folder is moved in at the first call, what could not be read is said until acknowledged", async () => {
    const folder = path.join(dir, "legacy-history");
    await writeOldRun(folder, {id: "old-run", createdAt: 7, kind: "chat"});
    await writeFile(path.join(folder, "history", "8-cut.json"), "{\"id\":");
    await writeOldJob(folder, "scoring-jobs", record("old-job", 3), table, [{rowIndex: 0, ok: true}]);
    const legacy = await start(folder);
    try {
        const page = await json<{entries: Array<{id: string}>, problems: string[]}>(call("/app-data/history", {}, legacy));
        const aside = (await readdir(folder)).find((name) => name.startsWith("history.migrated-"));
        assert.deepEqual([page.entries.map((entry) => entry.id), page.problems], [["old-run"], [`1 saved run could not be read and was kept in ${path.join(folder, aside!)} (8-cut.json: not JSON).`]]);
        assert.deepEqual((await json<{jobs: Array<{done: number}>}>(call("/app-data/scoring-jobs", {}, legacy))).jobs.map((job) => job.done), [1]);
        assert.deepEqual(await json(call("/app-data/item-problems/acknowledge", {method: "POST", body: {kind: "run"}}, legacy)), {acknowledged: 1});
        assert.deepEqual((await json<{problems: string[]}>(call("/app-data/history", {}, legacy))).problems, []);
        assert.deepEqual((await readdir(folder)).filter((name) => /^(history|scoring-jobs)$/.test(name)), [], "the old folders are renamed aside");
    } finally {
        await legacy.close({stopEngine: false});
    }
});

test("run history: newest first, delete one, clear", async () => {
    await json(call("/app-data/history", {method: "DELETE"}));
    for (const [id, createdAt] of [["a", 10], ["b", 30], ["c", 20]] as const)
        await json(call("/app-data/history", {method: "POST", body: {id, createdAt, kind: "chat", reply: {choices: []}}}));
    assert.deepEqual((await json<{entries: Array<{id: string}>}>(call("/app-data/history"))).entries.map((item) => item.id), ["b", "c", "a"]);
    assert.deepEqual(await json(call("/app-data/history/c", {method: "DELETE"})), {deleted: true});
    assert.deepEqual(await json(call("/app-data/history/c", {method: "DELETE"})), {deleted: false});
    assert.deepEqual(await json(call("/app-data/history", {method: "DELETE"})), {deleted: 2});
    assert.deepEqual(await json(call("/app-data/history")), {entries: [], next: null, total: 0, problems: []});
});

test("400 runs are read a page at a time, newest first, each page answering only its own runs; a damaged run is reported on its page only", async () => {
    await json(call("/app-data/history", {method: "DELETE"}));
    const reply = {choices: [{content: "x".repeat(2_000)}]};
    // Two runs per millisecond, so pages also split runs of the same time.
    for (let index = 0; index < 400; index++)
        await json(call("/app-data/history", {method: "POST", body: {id: `run-${String(index).padStart(3, "0")}`, createdAt: 10_000 + Math.floor(index / 2), kind: "chat", reply}}));
    // The 391st newest, damaged in the file as a bad disk or another program might leave it.
    const db = openSqlite(path.join(dataDir, "app.sqlite"));
    db.prepare("UPDATE runs SET value = '{' WHERE id = 'run-009'").run();
    db.close();

    type Page = {entries: Array<{id: string}>, next: string | null, total: number, problems: string[]};
    const first = await call("/app-data/history?limit=25");
    const firstPage = JSON.parse(first.body) as Page;
    assert.deepEqual([firstPage.entries.length, firstPage.total, firstPage.problems, firstPage.entries[0].id, firstPage.next], [25, 400, [], "run-399", "10187-run-375"]);
    assert.ok(first.body.length < 25 * 2_200, `the first page is ${first.body.length} bytes: its own 25 runs, no more`);
    const pages = [firstPage];
    while (pages.at(-1)!.next !== null) pages.push(await json<Page>(call(`/app-data/history?limit=25&after=${encodeURIComponent(pages.at(-1)!.next!)}`)));
    assert.equal(pages.length, 16);
    const ids = pages.flatMap((page) => page.entries.map((entry) => entry.id));
    assert.deepEqual(ids, Array.from({length: 400}, (_, index) => `run-${String(399 - index).padStart(3, "0")}`).filter((id) => id !== "run-009"));
    assert.deepEqual(pages.map((page, index) => [index, page.problems.length]).filter(([, count]) => count > 0), [[15, 1]], "only the last page read the damaged run");
    assert.match(pages[15].problems[0], /^1 saved run in the app's database could not be read and is left out \(run-009\)/);
    // Without a limit: the default page.
    assert.equal((await json<Page>(call("/app-data/history"))).entries.length, appDataLimits.historyPageSize);
    for (const query of ["limit=0", "limit=201", "limit=x", "after=nocursor", "after=12-..%2Fx"]) {
        const error = await errorOf(call(`/app-data/history?${query}`));
        assert.deepEqual([error.status, error.code], [400, "invalid_request"], query);
    }
    assert.deepEqual(await json(call("/app-data/history", {method: "DELETE"})), {deleted: 400});
});

test("scoring jobs: created with their table, results appended once per row, status updated, errors deleted, listed and opened", async () => {
    assert.deepEqual(await json(call("/app-data/scoring-jobs", {method: "POST", body: {record: record("job-1", 100), table}}), 201), {created: true});
    const exists = await errorOf(call("/app-data/scoring-jobs", {method: "POST", body: {record: record("job-1", 100), table}}));
    assert.deepEqual([exists.status, exists.code], [409, "job_exists"]);
    const noTable = await errorOf(call("/app-data/scoring-jobs", {method: "POST", body: {record: record("job-2", 100)}}));
    assert.deepEqual([noTable.status, noTable.code], [400, "invalid_request"]);

    const result = (rowIndex: number, ok: boolean) => ({rowIndex, ok, attempts: 1, durationMs: 3, completedAt: 1000 + rowIndex,
        ...ok ? {response: {answers: {positive: {type: "predicate", probability: 0.9}}}} : {error: {status: 400, code: "too_long", message: "m"}}});
    assert.deepEqual(await json(call("/app-data/scoring-jobs/job-1/results", {method: "POST", body: result(1, true)})), {stored: true});
    assert.deepEqual(await json(call("/app-data/scoring-jobs/job-1/results", {method: "POST", body: result(0, false)})), {stored: true});
    assert.deepEqual(await json(call("/app-data/scoring-jobs/job-1/results", {method: "POST", body: {...result(1, true), attempts: 7}})), {stored: false});
    const badRow = await errorOf(call("/app-data/scoring-jobs/job-1/results", {method: "POST", body: {rowIndex: 1.5, ok: true}}));
    assert.deepEqual([badRow.status, badRow.code], [400, "invalid_request"]);
    const noJob = await errorOf(call("/app-data/scoring-jobs/job-9/results", {method: "POST", body: result(0, true)}));
    assert.deepEqual([noJob.status, noJob.code], [404, "job_not_found"]);

    const updated = await json<{record: {status: string, totalRows: number, updatedAt: number}}>(call("/app-data/scoring-jobs/job-1", {method: "POST", body: {status: "paused"}}));
    assert.equal(updated.record.status, "paused");
    const unknownField = await errorOf(call("/app-data/scoring-jobs/job-1", {method: "POST", body: {createdAt: 5}}));
    assert.deepEqual([unknownField.status, unknownField.code], [400, "invalid_request"]);

    assert.deepEqual(await json(call("/app-data/scoring-jobs")), {jobs: [{record: {...record("job-1", 100), status: "paused", updatedAt: updated.record.updatedAt}, done: 2, failed: 1, hasTable: true}], problems: []});
    const opened = await json<{record: object, table: unknown, results: Array<{rowIndex: number}>, problems: string[]}>(call("/app-data/scoring-jobs/job-1"));
    assert.deepEqual([opened.table, opened.problems], [table, []]);
    assert.deepEqual(opened.results, [result(0, false), result(1, true)], "row order, the first result of row 1");
    assert.deepEqual(await json(call("/app-data/scoring-jobs/job-1/errors", {method: "DELETE"})), {deleted: 1});
    assert.deepEqual((await json<{results: Array<{rowIndex: number}>}>(call("/app-data/scoring-jobs/job-1"))).results.map((item) => item.rowIndex), [1]);

    assert.deepEqual(await json(call("/app-data/scoring-jobs/job-1", {method: "DELETE"})), {deleted: true});
    assert.deepEqual((await errorOf(call("/app-data/scoring-jobs/job-1"))).status, 404);
    assert.deepEqual(await json(call("/app-data/scoring-jobs")), {jobs: [], problems: []});
});

test("an 11th scoring job and a 51st experiment are saved beside every earlier one: none is removed, the paused one included", async () => {
    for (const [route, earlier] of [["scoring-jobs", 10], ["experiments", 50]] as const) {
        for (let index = 0; index <= earlier; index++) {
            const saved = {...record(`keep-${index}`, 200 + index), status: index === 0 ? "paused" : "completed"};
            assert.deepEqual(await json(call(`/app-data/${route}`, {method: "POST", body: {record: saved, table}}), 201), {created: true});
        }
        const {jobs, problems} = await json<{jobs: Array<{record: {jobId: string, status: string}, hasTable: boolean}>, problems: string[]}>(call(`/app-data/${route}`));
        assert.deepEqual([jobs.length, problems], [earlier + 1, []], route);
        assert.deepEqual([jobs[0].record.jobId, jobs.at(-1)!.record.jobId, jobs.at(-1)!.record.status, jobs.every((job) => job.hasTable)], [`keep-${earlier}`, "keep-0", "paused", true]);
        for (const job of jobs) await json(call(`/app-data/${route}/${job.record.jobId}`, {method: "DELETE"}));
    }
});

test("a folder the gateway cannot write is a 500 that names it, not a bare internal error", async () => {
    // A file where the data folder should be: every write under it fails with ENOTDIR (file modes do not stop root).
    const blocked = path.join(dir, "blocked");
    await writeFile(blocked, "not a folder");
    const broken = await start(blocked);
    try {
        const error = await errorOf(call("/app-data/documents/svc-studio-theme", {method: "POST", body: {}}, broken));
        assert.equal(error.status, 500);
        assert.equal(error.code, "storage_error");
        assert.match(error.message, /the app's data folder .*blocked could not be read or written \(ENOTDIR\)/);
    } finally {
        await broken.close({stopEngine: false});
    }
});

test("a gateway started without a data folder has no app-data routes", async () => {
    const none = await Gateway.start({mode: "web", supervisor: new EngineSupervisor(), connections: ConnectionStore.inMemory(), vault: new MemoryKeyVault(), rendererDir: dir});
    try {
        assert.deepEqual((await errorOf(call("/app-data/documents", {}, none))).status, 404);
    } finally {
        await none.close({stopEngine: false});
    }
});

test("a save in flight when the gateway closes (a window's last save as the app quits) is finished and kept", async () => {
    const closing = await start();
    const body = JSON.stringify({state: {theme: "dark"}, version: 0});
    const url = new URL(closing.url.replace(/\/$/, "") + "/gateway/api/app-data/documents/last-save");
    const answer = new Promise<number>((resolve, reject) => {
        const req = request(url, {method: "POST", headers: {"x-gateway-token": closing.token, "content-type": "application/json", "content-length": Buffer.byteLength(body)}},
            (res) => {
                res.resume();
                res.on("end", () => resolve(res.statusCode ?? 0));
            });
        req.on("error", reject);
        // Half the body now, the rest once the gateway is closing.
        req.write(body.slice(0, 10));
        setTimeout(() => req.end(body.slice(10)), 200);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = closing.close({stopEngine: false});
    assert.equal(await answer, 200);
    await closed;
    const reopened = await start();
    try {
        assert.deepEqual((await json<{documents: Record<string, unknown>}>(call("/app-data/documents", {}, reopened))).documents["last-save"], {state: {theme: "dark"}, version: 0});
    } finally {
        await reopened.close({stopEngine: false});
    }
});

test("experiments: kept apart from scoring jobs, each cell stored once, read back whole, deleted", async () => {
    const experiment = {...record("exp-1", 1000), spec: {kind: "experiment"}};
    await json(call("/app-data/experiments", {method: "POST", body: {record: experiment, table: {rows: [["a"]]}}}), 201);
    const cell = {rowIndex: 1, ok: true, cell: {rowIndex: 0, variant: 1, reply: "yes"}};
    assert.deepEqual(await json(call("/app-data/experiments/exp-1/cells", {method: "POST", body: cell})), {stored: true});
    // A cell that has a result is never stored twice (a resumed run that sends it again keeps the first).
    assert.deepEqual(await json(call("/app-data/experiments/exp-1/cells", {method: "POST", body: {...cell, cell: {reply: "no"}}})), {stored: false});
    const {jobs} = await json<{jobs: Array<{record: {jobId: string}, done: number}>}>(call("/app-data/experiments"));
    assert.deepEqual(jobs.map((job) => [job.record.jobId, job.done]), [["exp-1", 1]]);
    const scoring = await json<{jobs: Array<{record: {jobId: string}}>}>(call("/app-data/scoring-jobs"));
    assert.ok(!scoring.jobs.some((job) => job.record.jobId === "exp-1"));
    const whole = await json<{table: unknown, results: unknown[]}>(call("/app-data/experiments/exp-1"));
    assert.deepEqual(whole.table, {rows: [["a"]]});
    assert.deepEqual(whole.results, [cell]);
    await json(call("/app-data/experiments/exp-1", {method: "POST", body: {status: "completed"}}));
    assert.deepEqual(await json(call("/app-data/experiments/exp-1", {method: "DELETE"})), {deleted: true});
    assert.equal((await call("/app-data/experiments/exp-1")).status, 404);
});
