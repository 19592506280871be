import {stableStringify} from "../../protocol/decisions/stableStringify.ts";
import {fail, optional, readArray, readBoolean, readInteger, readNumber, readObject, readString, required, type FieldPath} from "../../protocol/validation.ts";
import {ExperimentFileError, isDatasetFile, parseExperimentSpec, readFileJson} from "./experimentFile.ts";
import {repeatsOf} from "./repeats.ts";
import type {CellResult, Dataset, ExperimentSpec} from "./types.ts";

// An experiment's results as one file (`*.svc-results.json`, format "svc-experiment-results" version 1): the experiment
// with its dataset inline, the rows it ran on, and every cell as stored. `svc-studio eval --results` writes it and the
// app opens it as a kept experiment, so a run made headless reads in the app as if the app had made it.

export const resultsFormat = "svc-experiment-results";
export const resultsFileVersion = 1;

export type ExperimentResults = {
    /** The experiment as it ran, its dataset inline. */
    experiment: ExperimentSpec & {dataset: Dataset},
    /** Dataset row indexes the run took (its sample), in order. */
    rowIndexes: number[],
    /** Every stored cell, in (row, variant) order. */
    cells: CellResult[]
};

/** The file's text: stable key order, a final newline. */
export function serializeExperimentResults(results: ExperimentResults): string {
    return `${stableStringify({format: resultsFormat, version: resultsFileVersion, ...results})}\n`;
}

/** Whether parsed JSON claims to be a results file (the app picks the reader by this). */
export function isResultsJson(json: unknown): boolean {
    return typeof json === "object" && json !== null && (json as {format?: unknown}).format === resultsFormat;
}

/**
 * Reads a results file (text or parsed JSON); throws ExperimentFileError naming the field at fault. Each cell must
 * name a row of the sample and a variant of the experiment, once.
 */
export function parseExperimentResults(input: string | unknown): ExperimentResults {
    return readFileJson(input, (json) => {
        const object = readObject(json, []);
        if (object.format !== resultsFormat) fail(["format"], `must be ${JSON.stringify(resultsFormat)}`);
        if (object.version !== resultsFileVersion) fail(["version"], `must be ${resultsFileVersion} (this svc-studio reads version ${resultsFileVersion})`);
        let experiment: ExperimentSpec;
        try {
            experiment = parseExperimentSpec(required(object, "experiment", [], readObject));
        } catch (error) {
            if (error instanceof ExperimentFileError) throw new ExperimentFileError(`experiment.${error.message}`);
            throw error;
        }
        if (isDatasetFile(experiment.dataset)) fail(["experiment", "dataset"], "must be inline (columns and rows), not a file");
        const dataset = experiment.dataset;
        const rowIndexes = required(object, "rowIndexes", [], readArray).map((value, index) => readInteger(value, ["rowIndexes", index], {min: 0, max: dataset.rows.length - 1}));
        const inSample = new Set(rowIndexes);
        const seen = new Set<string>();
        const cells = required(object, "cells", [], readArray).map((value, index) => {
            const cell = readCell(value, ["cells", index], experiment.variants.length, repeatsOf(experiment));
            if (!inSample.has(cell.rowIndex)) fail(["cells", index, "rowIndex"], `row ${cell.rowIndex} is not among rowIndexes`);
            const key = `${cell.rowIndex}:${cell.variant}:${cell.repeat ?? 0}`;
            if (seen.has(key)) fail(["cells", index], `is a second cell of row ${cell.rowIndex}, variant ${cell.variant}${cell.repeat === undefined ? "" : ` and repeat ${cell.repeat}`}`);
            seen.add(key);
            return cell;
        });
        return {experiment: {...experiment, dataset}, rowIndexes, cells};
    });
}

/** A cell's fields the summary reads are checked; the request, response and checks are kept as they are. */
function readCell(value: unknown, path: FieldPath, variants: number, repeats: number): CellResult {
    const object = readObject(value, path);
    const repeat = optional(object, "repeat", path, (item, at) => readInteger(item, at, {min: 0, max: repeats - 1}));
    const cell = {
        ...object,
        rowIndex: required(object, "rowIndex", path, (item, at) => readInteger(item, at, {min: 0})),
        variant: required(object, "variant", path, (item, at) => readInteger(item, at, {min: 0, max: variants - 1})),
        ...(repeat === undefined || repeat === 0 ? {} : {repeat}),
        ok: required(object, "ok", path, readBoolean),
        request: required(object, "request", path, readObject),
        latencyMs: required(object, "latencyMs", path, (item, at) => readNumber(item, at, {min: 0})),
        attempts: optional(object, "attempts", path, (item, at) => readInteger(item, at, {min: 0})) ?? 1,
        completedAt: optional(object, "completedAt", path, readNumber) ?? 0
    };
    if (object.reply !== undefined) readString(object.reply, [...path, "reply"]);
    if (object.checks !== undefined) readArray(object.checks, [...path, "checks"]);
    return cell as CellResult;
}
