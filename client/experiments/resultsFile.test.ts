import {test} from "node:test";
import assert from "node:assert/strict";
import {parseExperimentResults, serializeExperimentResults, type ExperimentResults} from "./resultsFile.ts";
import {decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";

const dataset = {id: "d", name: "tickets", columns: ["text", "urgent"], columnTypes: ["string" as const, "string" as const], rows: [["a", "yes"], ["b", "no"], ["c", "yes"]],
    labelColumns: ["urgent"], inputColumns: ["text"], createdAt: 0, updatedAt: 0};
const results: ExperimentResults = {
    experiment: {...experiment([decisionVariant("A", urgentSet), decisionVariant("B", urgentSet)]), dataset},
    rowIndexes: [0, 2],
    cells: [predicateCell(0, 0, 0.8), predicateCell(0, 1, 0.3), predicateCell(2, 0, 0.6)]
};

test("a results file reads back as written: the experiment with its dataset, the sample's rows and every cell", () => {
    const text = serializeExperimentResults(results);
    assert.ok(text.endsWith("}\n"));
    assert.deepEqual(parseExperimentResults(text), results);
});

test("a results file that does not fit its experiment is refused with the field at fault", () => {
    const broken = (change: (json: Record<string, any>) => void) => {
        const json = JSON.parse(serializeExperimentResults(results)) as Record<string, any>;
        change(json);
        return () => parseExperimentResults(json);
    };
    assert.throws(broken((json) => json.version = 2), /^ExperimentFileError: version: must be 1/);
    assert.throws(broken((json) => json.experiment.variants[1].name = "A"), /experiment\.variants\[1\]\.name: "A" is the name of an earlier variant/);
    assert.throws(broken((json) => json.experiment.dataset = {file: "rows.csv", labelColumns: []}), /experiment\.dataset: must be inline/);
    assert.throws(broken((json) => json.rowIndexes = [0, 3]), /rowIndexes\[1\]: must be at most 2/);
    assert.throws(broken((json) => json.cells[2].rowIndex = 1), /cells\[2\]\.rowIndex: row 1 is not among rowIndexes/);
    assert.throws(broken((json) => json.cells[2].variant = 2), /cells\[2\]\.variant: must be at most 1/);
    assert.throws(broken((json) => json.cells.push(json.cells[0])), /cells\[3\]: is a second cell of row 0, variant 0/);
    assert.throws(() => parseExperimentResults("{"), /not JSON/);
});
