import type {CellValue} from "../../scoring/types.ts";
import {checkExperimentInput, maxExperimentRows, sampleIndexes} from "../dataset.ts";
import {experimentFileVersion, experimentFormat} from "../experimentFile.ts";
import type {Check, Dataset, ExperimentSpec, Variant} from "../types.ts";
import {ImportError, type ImportReport} from "./importProblems.ts";

// The experiment an import ends with, whatever it came from: every row kept, a seeded sample when there are more
// than an experiment runs, and the checks that run before anything is sent run now, so an import never writes an
// experiment that `svc-studio eval` would refuse.

/** A value of the source as a cell: text, a number or a boolean as is, anything else as its JSON. */
export function cellValue(value: unknown): CellValue {
    if (value === undefined || value === null) return null;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
    return JSON.stringify(value);
}

/** The experiment file of an import; throws an ImportError at `file` when the experiment would not run. */
export function importedExperiment(parts: {file: string, id: string, name: string, dataset: Dataset, variants: Variant[], checks: Check[], createdAt?: number}, report: ImportReport): ExperimentSpec {
    const {dataset} = parts;
    // An experiment runs at most maxExperimentRows rows: a larger suite keeps every row and runs a seeded sample.
    const sample: ExperimentSpec["sample"] = dataset.rows.length > maxExperimentRows ? {kind: "random", n: maxExperimentRows, seed: 1} : {kind: "all"};
    if (sample.kind === "random")
        report.note(`the tests make ${dataset.rows.length.toLocaleString("en-US")} rows, more than the ${maxExperimentRows.toLocaleString("en-US")} an experiment runs: it runs ${maxExperimentRows.toLocaleString("en-US")} of them at random (seed 1; change "sample" to choose)`);
    const spec: ExperimentSpec = {
        format: experimentFormat, version: experimentFileVersion, id: parts.id, name: parts.name, dataset, sample,
        variants: parts.variants, checks: parts.checks, seed: 1, createdAt: parts.createdAt ?? 0
    };
    const input = checkExperimentInput(spec, dataset, sampleIndexes(dataset, spec.sample));
    if (input.errors.length > 0)
        throw new ImportError({file: parts.file, field: input.errors[0].path}, `the imported experiment would not run: ${input.errors.map((problem) => `${problem.path}: ${problem.message}`).join("; ")}`);
    for (const warning of input.warnings) report.note(`${warning.path}: ${warning.message}`);
    return spec;
}

/** Names made unique in order: a second "A" becomes "A (2)". */
export function uniqueNames<T extends {name: string}>(items: T[]): T[] {
    const seen = new Map<string, number>();
    for (const item of items) {
        const count = (seen.get(item.name) ?? 0) + 1;
        seen.set(item.name, count);
        if (count > 1) item.name = `${item.name} (${count})`;
    }
    return items;
}
