// The datasets store over the app-data cache (in memory here: no gateway answers, so nothing is sent): rows in parts
// each under the gateway's size limit of one document, read back whole, parts removed when a dataset shrinks or goes.
import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {appDataStorage} from "../../gateway/appData.ts";
import {addRecordRows, createDataset, deleteDataset, getDataset, saveDataset, updateDataset, useDatasetsStore} from "./datasetStore.ts";

const rowsKey = (id: string, part: number) => `svc-studio-dataset-${id}-rows-${part}`;
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

describe("datasets store", () => {
    test("a big dataset's rows are split into documents under 4 MB each and read back whole", () => {
        // 30,000 rows of about 200 CJK characters: about 18 MB of UTF-8.
        const text = "价格便宜，质量好".repeat(25);
        const created = createDataset({name: "Big", columns: ["n", "text"], rows: Array.from({length: 30_000}, (_, index) => [index, text])});
        assert.ok(created.ok);
        const id = created.dataset.id;
        const info = useDatasetsStore.getState().datasets.find((item) => item.id === id)!;
        assert.ok(info.rowParts >= 5, `${info.rowParts} parts`);
        for (let part = 0; part < info.rowParts; part++) assert.ok(utf8Bytes(appDataStorage.getItem(rowsKey(id, part)) as string) < 4 * 1024 * 1024);
        assert.equal(info.rowCount, 30_000);
        assert.deepEqual(info.columnTypes, ["number", "string"]);

        // Shrunk: the parts it no longer needs are removed.
        assert.deepEqual(updateDataset(id, (dataset) => ({...dataset, rows: dataset.rows.slice(0, 10)})), {ok: true});
        assert.equal(useDatasetsStore.getState().datasets.find((item) => item.id === id)!.rowParts, 1);
        assert.equal(appDataStorage.getItem(rowsKey(id, 1)), null);
        assert.deepEqual(getDataset(id)!.rows[9], [9, text]);

        const removed = deleteDataset(id);
        assert.equal(removed?.rows.length, 10);
        assert.equal(appDataStorage.getItem(rowsKey(id, 0)), null);
        assert.equal(getDataset(id), null);
        // Undo saves it again, whole.
        assert.deepEqual(saveDataset(removed!), {ok: true});
        assert.equal(getDataset(id)!.rows.length, 10);
    });

    test("more than 100,000 rows is refused and nothing is saved", () => {
        const before = useDatasetsStore.getState().datasets.length;
        const created = createDataset({name: "Too big", columns: ["n"], rows: Array.from({length: 100_001}, (_, index) => [index])});
        assert.equal(created.ok, false);
        assert.equal(useDatasetsStore.getState().datasets.length, before);
    });

    test("rows added as records fill the columns they name and add the ones the dataset lacks", () => {
        const created = createDataset({name: "Runs", columns: ["user", "reply"], rows: [["hi", "hello"]]});
        assert.ok(created.ok);
        assert.deepEqual(addRecordRows(created.dataset.id, [{user: "bye", reply: "ciao", expected: "goodbye"}]), {ok: true});
        const dataset = getDataset(created.dataset.id)!;
        assert.deepEqual(dataset.columns, ["user", "reply", "expected"]);
        assert.deepEqual(dataset.rows, [["hi", "hello", null], ["bye", "ciao", "goodbye"]]);
        assert.deepEqual(dataset.labelColumns, ["expected"]);
        assert.deepEqual(dataset.inputColumns, ["user", "reply"]);
        // Saved datasets are listed newest first, the list document written for the gateway.
        assert.equal(useDatasetsStore.getState().datasets[0].id, created.dataset.id);
        assert.match(appDataStorage.getItem("svc-studio-datasets") as string, /"Runs"/);
    });
});
