import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {cellFromText, datasetCsv, defaultColumnRoles, duplicateWarning, parseDatasetFile, rowLimitProblem, uniqueColumnNames} from "./datasetModel.ts";

describe("dataset checks and files", () => {
    test("label columns are guessed from their names and hidden from the model", () => {
        assert.deepEqual(defaultColumnRoles(["text", "expected", "stars_gold", "id"]), {labelColumns: ["expected", "stars_gold"], inputColumns: ["text", "id"]});
    });

    test("repeated rows are counted and named by their 1-based row numbers", () => {
        assert.equal(duplicateWarning([["a", 1], ["b", 2]]), null);
        assert.equal(duplicateWarning([["a", 1], ["b", 2], ["a", 1], ["a", 1]]),
            "2 rows repeat an earlier row exactly (rows 3, 4): each copy counts in every metric.");
        // null and an empty cell read back the same (a CSV export writes both as nothing).
        assert.match(duplicateWarning([["a", null], ["a", null]]) ?? "", /^1 row repeats an earlier row exactly \(row 2\)/);
    });

    test("more than 100,000 rows is refused with what to do instead", () => {
        assert.equal(rowLimitProblem(100_000), null);
        assert.match(rowLimitProblem(100_001) ?? "", /^100,001 rows is more than the 100,000 a dataset holds: keep the first 100,000, or sample or split the file first\.$/);
    });

    test("a typed value keeps its column's type; other text stays text", () => {
        assert.equal(cellFromText("42", "number"), 42);
        assert.equal(cellFromText("4x", "number"), "4x");
        assert.equal(cellFromText("TRUE", "boolean"), true);
        assert.equal(cellFromText("", "string"), null);
        assert.equal(cellFromText("42", "string"), "42");
    });

    test("blank and repeated column names become distinct names", () => {
        assert.deepEqual(uniqueColumnNames(["a", "", "a", " a "]), ["a", "column 2", "a (2)", "a (3)"]);
    });

    test("a dataset file reads back with its types and roles; a bad field is named", () => {
        const read = parseDatasetFile(JSON.stringify({name: "Quiz", columns: ["q", "expected"], rows: [["2+2", 4], ["3+3"]], labelColumns: ["expected"]}));
        assert.deepEqual(read, {name: "Quiz", columns: ["q", "expected"], columnTypes: ["string", "number"], rows: [["2+2", 4], ["3+3", null]], labelColumns: ["expected"], inputColumns: ["q"]});
        assert.throws(() => parseDatasetFile("{"), /^Error: Not a JSON file/);
        assert.throws(() => parseDatasetFile(JSON.stringify({columns: ["a", "a"], rows: []})), /columns: two columns have the same name/);
        assert.throws(() => parseDatasetFile(JSON.stringify({columns: ["a"], rows: [[{}]]})), /rows\[0\]: must be an array of at most 1 cells/);
        assert.throws(() => parseDatasetFile(JSON.stringify({columns: ["a"], rows: [], labelColumns: ["b"]})), /labelColumns: "b" is not a column/);
        // An experiment file's inline dataset reads as the dataset.
        assert.equal(parseDatasetFile(JSON.stringify({format: "svc-experiment", dataset: {name: "Inline", columns: ["a"], rows: [["x"]]}})).name, "Inline");
    });

    test("the CSV export starts with a byte-order mark and quotes what needs quoting", () => {
        assert.equal(datasetCsv({columns: ["q", "a"], rows: [["Say \"hi\", please", 1], [null, true]]}), "\ufeffq,a\r\n\"Say \"\"hi\"\", please\",1\r\n,true\r\n");
    });
});
