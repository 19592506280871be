import {readFile} from "node:fs/promises";
import path from "node:path";
import {writeFileAtomic} from "../../../base/node/writeFileAtomic.ts";
import {openSpreadsheetFile} from "../../scoring/node/spreadsheetFiles.ts";
import {openTable} from "../../scoring/table.ts";
import type {SheetRow} from "../../scoring/types.ts";
import {datasetFromTable, ExperimentInputError, maxDatasetRows} from "../dataset.ts";
import {isDatasetFile, parseExperimentSpec, serializeExperimentSpec, type DatasetFileRef} from "../experimentFile.ts";
import type {Dataset, ExperimentSpec} from "../types.ts";

// Experiment files on disk (Node only): reading one with the CSV or XLSX file its dataset names, and writing one
// as the app exports it.

export type LoadedExperiment = {spec: ExperimentSpec, dataset: Dataset, filePath: string};

/** Reads and checks an experiment file and its dataset; a file dataset is read relative to the experiment file. */
export async function readExperimentFile(filePath: string): Promise<LoadedExperiment> {
    const spec = parseExperimentSpec(await readFile(filePath, "utf8"));
    const dataset = isDatasetFile(spec.dataset) ? await readDatasetFile(spec.dataset, path.dirname(path.resolve(filePath))) : spec.dataset;
    return {spec, dataset, filePath};
}

/** Writes an experiment file atomically, in the text the app exports (serializeExperimentSpec). */
export async function writeExperimentFile(filePath: string, spec: ExperimentSpec): Promise<void> {
    await writeFileAtomic(filePath, serializeExperimentSpec(spec));
}

/**
 * Reads the CSV or XLSX file a dataset names. An XLSX with several sheets must name one (`sheet`); a file with more
 * rows than a dataset holds is refused before it is read whole; label and input columns must name columns.
 */
export async function readDatasetFile(ref: DatasetFileRef, baseDir: string): Promise<Dataset> {
    const file = path.resolve(baseDir, ref.file);
    const source = openSpreadsheetFile(file);
    if (source.format === "xlsx" && ref.sheet === undefined) {
        const sheets = await source.sheetNames();
        if (sheets.length > 1)
            throw new ExperimentInputError([{path: "dataset.sheet", message: `${ref.file} has ${sheets.length} sheets (${sheets.map((name) => JSON.stringify(name)).join(", ")}): name the one to use, e.g. "sheet": ${JSON.stringify(sheets[0])}`}]);
    }
    if (source.format === "csv" && ref.sheet !== undefined) throw new ExperimentInputError([{path: "dataset.sheet", message: `${ref.file} is a CSV file, which has no sheets`}]);
    let table;
    try {
        table = await openTable(source, {sheet: ref.sheet});
    } catch (error) {
        if (error instanceof RangeError) throw new ExperimentInputError([{path: "dataset.sheet", message: error.message}]);
        throw error;
    }
    const problems = [...ref.labelColumns.map((name, index) => ["labelColumns", index, name] as const), ...(ref.inputColumns ?? []).map((name, index) => ["inputColumns", index, name] as const)]
        .filter(([, , name]) => !table.columns.includes(name))
        .map(([field, index, name]) => ({path: `dataset.${field}[${index}]`, message: `${ref.file} has no column ${JSON.stringify(name)} (columns: ${table.columns.map((column) => JSON.stringify(column)).join(", ")})`}));
    if (problems.length > 0) throw new ExperimentInputError(problems);
    const rows: SheetRow[] = [];
    for await (const batch of table.batches()) {
        rows.push(...batch.rows);
        if (rows.length > maxDatasetRows)
            throw new ExperimentInputError([{path: "dataset.file", message: `${ref.file} has more than ${maxDatasetRows.toLocaleString("en-US")} rows, the most a dataset holds: sample or split the file first`}]);
    }
    return datasetFromTable({name: path.basename(file), columns: table.columns, rows, labelColumns: ref.labelColumns, inputColumns: ref.inputColumns});
}
