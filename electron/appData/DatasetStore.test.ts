// The datasets tables through the app-data store, on a real SQLite file in a temporary folder.
import assert from "node:assert/strict";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {after, test} from "node:test";
import {refusal} from "../../test/support/appData/refusal.ts";
import type {SavedDatasetFields} from "../../protocol/gateway/contract.ts";
import {AppDatabase} from "./AppDatabase.ts";
import {AppDataStore} from "./AppDataStore.ts";

const root = await mkdtemp(path.join(os.tmpdir(), "svc-datasets-"));
let folders = 0;
const folder = () => path.join(root, `case-${++folders}`);
after(() => rm(root, {recursive: true, force: true}));

const fields = (name = "Reviews", columns = ["text", "label"]): SavedDatasetFields =>
    ({name, columns, columnTypes: columns.map(() => "string"), labelColumns: columns.filter((column) => column === "label"), inputColumns: columns.filter((column) => column !== "label")});

/** Every row of a dataset, read a page at a time as the page does. */
async function allRows(data: AppDataStore, id: string, page = 1000): Promise<unknown[][]> {
    const rows: unknown[][] = [];
    for (let offset = 0; ; offset += page) {
        const read = await data.datasets.rows(id, offset, page);
        rows.push(...read.rows);
        if (offset + page >= read.total) return rows;
    }
}

test("a 100,000-row dataset is written in one transaction and read back a page at a time", async () => {
    const data = new AppDataStore(folder());
    const rows = Array.from({length: 100_000}, (_, index) => [`review ${index}`, index % 2 === 0 ? "yes" : "no"]);
    const saved = await data.datasets.put("big", {revision: 0, fields: fields(), rows});
    assert.equal(saved.rowCount, 100_000);
    const page = await data.datasets.rows("big", 99_990, 50);
    assert.deepEqual(page.rows, rows.slice(99_990));
    assert.equal(page.total, 100_000);
    assert.equal(page.revision, saved.revision);
    const {datasets} = await data.datasets.list();
    assert.deepEqual(datasets.map((item) => [item.id, item.rowCount]), [["big", 100_000]]);
    // What the page reads as it starts does not grow with the rows: neither the documents nor the list hold them.
    assert.ok(JSON.stringify(await data.documents.read()).length < 1000);
    assert.ok(JSON.stringify(await data.datasets.list()).length < 1000);
    await data.close();
});

test("an import with one bad row stores nothing: all its rows or none", async () => {
    const data = new AppDataStore(folder());
    const rows: unknown[][] = Array.from({length: 3000}, (_, index) => [`row ${index}`, "yes"]);
    rows[2999] = [{nested: true}, "yes"];
    assert.equal(await refusal(data.datasets.put("d", {revision: 0, fields: fields(), rows: rows as never})), "400 invalid_request");
    assert.deepEqual((await data.datasets.list()).datasets, []);
    assert.equal(await refusal(data.datasets.rows("d", 0, 10)), "404 dataset_not_found");
    await data.close();
});

test("row edits keep positions contiguous: set, insert in the middle, delete, append, in one transaction", async () => {
    const data = new AppDataStore(folder());
    const first = await data.datasets.put("d", {revision: 0, fields: fields(), rows: [["a", "x"], ["b", "x"], ["c", "x"]]});
    const changed = await data.datasets.change("d", {revision: first.revision, edits: [
        {op: "set", index: 1, cells: ["B", "y"]},
        {op: "insert", index: 1, cells: ["a2"]},
        {op: "delete", index: 0},
        {op: "append", rows: [["d", "z"], ["e"]]}
    ]});
    assert.equal(changed.rowCount, 5);
    assert.ok(changed.revision > first.revision);
    assert.deepEqual(await allRows(data, "d", 2), [["a2", null], ["B", "y"], ["c", "x"], ["d", "z"], ["e", null]]);

    // A bad edit after good ones: none of them is applied.
    assert.equal(await refusal(data.datasets.change("d", {revision: changed.revision, edits: [{op: "set", index: 0, cells: ["changed"]}, {op: "delete", index: 9}]})), "400 invalid_request");
    assert.deepEqual((await data.datasets.rows("d", 0, 1)).rows, [["a2", null]]);

    // A new column: rows written before it read with an empty cell there.
    const widened = await data.datasets.change("d", {revision: changed.revision, fields: {...fields("Reviews", ["text", "label", "note"])}, edits: [{op: "append", rows: [["f", "x", "new"]]}]});
    assert.deepEqual(widened.columns, ["text", "label", "note"]);
    assert.deepEqual((await data.datasets.rows("d", 4, 2)).rows, [["e", null, null], ["f", "x", "new"]]);
    await data.close();
});

test("a write based on an old revision is refused with a 409 and changes nothing: two windows never overwrite each other", async () => {
    const data = new AppDataStore(folder());
    const saved = await data.datasets.put("d", {revision: 0, fields: fields(), rows: [["a", "x"]]});
    const other = await data.datasets.change("d", {revision: saved.revision, edits: [{op: "append", rows: [["from B"]]}]});
    assert.equal(await refusal(data.datasets.change("d", {revision: saved.revision, fields: {name: "from A"}})), "409 revision_conflict");
    assert.equal(await refusal(data.datasets.put("d", {revision: 0, fields: fields("new in A"), rows: []})), "409 revision_conflict");
    assert.equal(await refusal(data.datasets.remove("d", saved.revision)), "409 revision_conflict");
    const {datasets} = await data.datasets.list();
    assert.deepEqual(datasets.map((item) => [item.name, item.rowCount, item.revision]), [["Reviews", 2, other.revision]]);
    assert.equal(await data.datasets.remove("d", other.revision), true);
    assert.equal((await data.datasets.list()).datasets.length, 0);
    await data.close();
});

test("fields that do not fit are refused before anything is written", async () => {
    const data = new AppDataStore(folder());
    assert.equal(await refusal(data.datasets.put("d", {revision: 0, fields: {...fields(), labelColumns: ["nope"]}, rows: []})), "400 invalid_request");
    assert.equal(await refusal(data.datasets.put("d", {revision: 0, fields: {...fields(), columns: ["a", "a"]}, rows: []})), "400 invalid_request");
    assert.equal(await refusal(data.datasets.put("d", {revision: 0, fields: {...fields(), name: " "}, rows: []})), "400 invalid_request");
    assert.equal(await refusal(data.datasets.put("../d", {revision: 0, fields: fields(), rows: []})), "400 invalid_name");
    assert.deepEqual((await data.datasets.list()).datasets, []);
    await data.close();
});

test("a dataset whose stored description is damaged is left out and reported; the others load", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    await data.datasets.put("good", {revision: 0, fields: fields("Good"), rows: [["a", "x"]]});
    await data.datasets.put("bad", {revision: 0, fields: fields("Damaged"), rows: [["a", "x"]]});
    await data.close();
    const db = await AppDatabase.open(dir);
    db.transaction(() => db.statement("UPDATE datasets SET info = '{not json' WHERE id = 'bad'").run());
    db.statement("UPDATE dataset_rows SET cells = 'garbage' WHERE dataset_id = 'good'").run();
    db.close();
    const reopened = new AppDataStore(dir);
    const {datasets, problems} = await reopened.datasets.list();
    assert.deepEqual(datasets.map((item) => item.name), ["Good"]);
    assert.match(problems.join(" "), /"Damaged".*could not be read/);
    assert.deepEqual((await reopened.datasets.rows("good", 0, 5)).rows, [[null, null]], "a row that does not read keeps its place, empty");
    await reopened.close();
});

test("datasets kept as documents by earlier versions move into the tables at first open, orphaned rows included", async () => {
    const dir = folder();
    const data = new AppDataStore(dir);
    const info = {id: "ds1", name: "Old", columns: ["text", "label"], columnTypes: ["string", "string"], labelColumns: ["label"], inputColumns: ["text"], rowCount: 3, rowParts: 2, createdAt: 5, updatedAt: 6};
    await data.documents.put("svc-studio-datasets", {state: {datasets: [info]}, version: 1});
    await data.documents.put("svc-studio-dataset-ds1-rows-0", [["a", "yes"], ["b", "no"]]);
    await data.documents.put("svc-studio-dataset-ds1-rows-1", [["c", "yes"]]);
    await data.documents.put("svc-studio-dataset-lost-rows-0", [["orphan", 1]]);
    await data.documents.put("svc-studio-theme", {state: {theme: "dark"}});
    await data.close();

    const upgraded = new AppDataStore(dir);
    const {datasets} = await upgraded.datasets.list();
    assert.deepEqual(datasets.map((item) => [item.id, item.name, item.rowCount]).sort(), [["ds1", "Old", 3], ["lost", "Recovered rows lost", 1]]);
    assert.deepEqual(datasets.find((item) => item.id === "ds1")!.labelColumns, ["label"]);
    assert.deepEqual(await allRows(upgraded, "ds1"), [["a", "yes"], ["b", "no"], ["c", "yes"]]);
    assert.deepEqual(await allRows(upgraded, "lost"), [["orphan", 1]]);
    assert.deepEqual(Object.keys((await upgraded.documents.read()).documents), ["svc-studio-theme"], "the documents they came from are gone; the rest stay");
    await upgraded.close();
});
