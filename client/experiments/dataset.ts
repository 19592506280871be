import {seededRandom} from "../../base/common/seededRandom.ts";
import {acceptedLabels, readLabel} from "../scoring/evaluation.ts";
import {guessLabelColumn} from "../scoring/labelColumns.ts";
import {isUnreadLevelIndex} from "../scoring/scoreLevels.ts";
import {parseQuestionSet, questionInfos, QuestionSetError} from "../scoring/questions.ts";
import {cellText, templateVariables, TemplateError} from "../scoring/requests.ts";
import {LabelColumnError} from "../scoring/modelColumns.ts";
import type {SheetRow} from "../scoring/types.ts";
import {compileCellTask} from "./cellTasks.ts";
import {checkProblems} from "./checks.ts";
import type {ColumnType, Dataset, ExperimentSpec, Sample} from "./types.ts";
import {bodyVariables, VariableError} from "./variables.ts";
import {formatCount} from "./metricDefinitions.ts";
import {repeatProblems, repeatsOf} from "./repeats.ts";
import {calibrationWarnings} from "../scoring/calibrationCheck.ts";

// A dataset's rows for an experiment: which rows a sample takes, and every check of the input that runs before
// anything is sent, each problem one sentence that names where it is and what to do.

/** Rows a dataset holds (a file or an import with more is refused, with the advice to sample or split it first). */
export const maxDatasetRows = 100_000;

/** Rows one experiment runs at most; a larger sample is refused with the advice to run on a random sample. */
export const maxExperimentRows = 50_000;

/** Rows shown by number in a message before "and N more". */
const shownRows = 5;

/**
 * The 0-based indexes of the rows `sample` takes, in dataset order: all, the first N, N at random from a seed (the
 * same rows for the same seed: a seeded partial Fisher-Yates shuffle), or those whose column equals, differs from
 * or contains (any case) a value. Throws when a filter names no column.
 */
export function sampleIndexes(dataset: Pick<Dataset, "columns" | "rows">, sample: Sample): number[] {
    const count = dataset.rows.length;
    const all = () => Array.from({length: count}, (_, index) => index);
    if (sample.kind === "all") return all();
    if (sample.kind === "first") return Array.from({length: Math.max(0, Math.min(count, Math.floor(sample.n)))}, (_, index) => index);
    if (sample.kind === "random") {
        const n = Math.max(0, Math.min(count, Math.floor(sample.n)));
        const indexes = all();
        const random = seededRandom(sample.seed);
        for (let place = 0; place < n; place++) {
            const pick = place + Math.floor(random() * (count - place));
            [indexes[place], indexes[pick]] = [indexes[pick], indexes[place]];
        }
        return indexes.slice(0, n).sort((a, b) => a - b);
    }
    const column = dataset.columns.indexOf(sample.column);
    if (column < 0) throw new RangeError(`sample.column: the filter names the column ${JSON.stringify(sample.column)}, which the dataset does not have`);
    const wanted = sample.value.toLowerCase();
    const keep = (text: string) => sample.op === "equals" ? text === sample.value
        : sample.op === "not_equals" ? text !== sample.value : text.toLowerCase().includes(wanted);
    return all().filter((index) => keep(cellText(dataset.rows[index][column])));
}

/** "first 50 rows", "30 random rows (seed 7)", "rows where label equals yes": a sample in words. */
export function describeSample(sample: Sample): string {
    if (sample.kind === "all") return "every row";
    if (sample.kind === "first") return `the first ${formatCount(sample.n)} rows`;
    if (sample.kind === "random") return `${formatCount(sample.n)} random rows (seed ${sample.seed})`;
    const op = sample.op === "equals" ? "equals" : sample.op === "not_equals" ? "is not" : "contains";
    return `rows where ${sample.column} ${op} "${sample.value}"`;
}

/** A column's type from its cells: number (or boolean) when every non-empty cell is one, else string. */
export function columnTypeOf(rows: readonly SheetRow[], column: number): ColumnType {
    let kind: ColumnType | null = null;
    for (const row of rows) {
        const cell = row[column];
        if (cell === null || cell === undefined || cell === "") continue;
        const type: ColumnType = typeof cell === "number" ? "number" : typeof cell === "boolean" ? "boolean" : "string";
        if (kind !== null && kind !== type) return "string";
        kind = type;
    }
    return kind ?? "string";
}

/** A table read from a file as a Dataset: column types from the cells, model-visible columns all but the labels. */
export function datasetFromTable(table: {name: string, columns: string[], rows: SheetRow[], labelColumns: string[], inputColumns?: string[]}): Dataset {
    return {
        id: table.name,
        name: table.name,
        columns: table.columns,
        columnTypes: table.columns.map((_, index) => columnTypeOf(table.rows, index)),
        rows: table.rows,
        labelColumns: table.labelColumns,
        inputColumns: table.inputColumns ?? table.columns.filter((column) => !table.labelColumns.includes(column)),
        createdAt: 0,
        updatedAt: 0
    };
}

/** One thing wrong with an experiment's input: where (`variants[1].version.prompt.body.messages[0].content`) and what. */
export type InputProblem = {path: string, message: string};

/** Errors stop the run before anything is sent; warnings are said and the run goes on. */
export type InputCheck = {errors: InputProblem[], warnings: InputProblem[]};

/** The input is not fit to run; `problems` are every error found, the message their lines. */
export class ExperimentInputError extends Error {
    public readonly problems: InputProblem[];

    public constructor(problems: InputProblem[]) {
        super(problems.map((problem) => `${problem.path}: ${problem.message}`).join("\n"));
        this.name = "ExperimentInputError";
        this.problems = problems;
    }
}

/**
 * Every check that runs before anything is sent, on the rows the experiment runs (`rows`, from sampleIndexes):
 * - the sample is empty, or holds more than maxExperimentRows rows;
 * - a `{{variable}}` that names no column, a bad input template or question set, a check naming no column, a
 *   regular expression RE2 cannot run, a bad schema, a grader template without `{{reply}}`;
 * - label values outside a question's choices or, against numbered score levels, a level index that is no level's
 *   label (errors), or missing (warning: metrics use the labelled rows);
 * - rows that repeat an earlier row exactly (error: each copy would count twice in every metric).
 */
export function checkExperimentInput(spec: ExperimentSpec, dataset: Dataset, rows: readonly number[]): InputCheck {
    const errors: InputProblem[] = [];
    const warnings: InputProblem[] = [];
    if (rows.length === 0) errors.push({path: "sample", message: `takes no row of the dataset's ${dataset.rows.length}: choose another filter or sample size`});
    if (rows.length > maxExperimentRows)
        errors.push({path: "sample", message: `takes ${rows.length.toLocaleString("en-US")} rows, more than the ${maxExperimentRows.toLocaleString("en-US")} an experiment runs: run on a sample, e.g. "sample": {"kind": "random", "n": 1000, "seed": 1}`});
    const noCall = () => {
        throw new Error("nothing is sent before the input is checked");
    };
    spec.variants.forEach((variant, index) => {
        try {
            compileCellTask(variant, index, dataset, [], noCall);
            if (namesNoColumn(variant))
                warnings.push({path: `variants[${index}].version.prompt`, message: `variant ${variant.name} names no column of the dataset: every row sends the same input, so its answers cannot differ by row (write {{column}} where a row's cell goes)`});
        } catch (error) {
            errors.push(problemOf(error, `variants[${index}]`));
        }
    });
    for (const problem of checkProblems(spec.checks, dataset.columns)) errors.push(problemOf(problem, "checks"));
    spec.checks.forEach((check, index) => {
        if (check.kind === "grader" && check.calibration !== undefined)
            for (const message of calibrationWarnings(check.calibration)) warnings.push({path: `checks[${index}].calibration`, message});
    });
    errors.push(...repeatProblems(spec));
    if (rows.length <= maxExperimentRows && rows.length * repeatsOf(spec) > maxExperimentRows)
        errors.push({path: "repeats", message: `${rows.length.toLocaleString("en-US")} rows asked ${repeatsOf(spec)} times each make ${(rows.length * repeatsOf(spec)).toLocaleString("en-US")} answers per variant, more than the ${maxExperimentRows.toLocaleString("en-US")} an experiment runs: sample fewer rows or ask fewer repeats`});
    if (spec.cluster !== undefined && !dataset.columns.includes(spec.cluster))
        errors.push({path: "cluster", message: `no column named ${JSON.stringify(spec.cluster)} to cluster rows by (columns: ${dataset.columns.join(", ")})`});
    if (rows.length <= maxExperimentRows) {
        checkLabels(spec, dataset, rows, errors, warnings);
        const repeats = repeatedRows(dataset.rows, rows);
        if (repeats.length > 0)
            errors.push({path: "dataset.rows", message: `${repeats.length} row${repeats.length === 1 ? " repeats" : "s repeat"} an earlier row exactly (${listRows(repeats.map(([row, first]) => `row ${row + 1} = row ${first + 1}`))}): each copy would count in every metric; remove the repeats`});
    }
    return {errors, warnings};
}

/** A variant whose requests take nothing from the row: a template or prompt without a `{{column}}`. */
function namesNoColumn(variant: ExperimentSpec["variants"][number]): boolean {
    const prompt = variant.version.prompt;
    if (prompt.kind === "chat") return bodyVariables(prompt.body).length === 0;
    return prompt.input.kind === "template" && templateVariables(prompt.input.template).length === 0;
}

function problemOf(error: unknown, fallbackPath: string): InputProblem {
    if (error instanceof VariableError) return {path: error.path, message: error.message.slice(error.path.length + 2)};
    if (error instanceof LabelColumnError) return {path: `${fallbackPath}.version.prompt.input`, message: error.message};
    if (error instanceof TemplateError || error instanceof QuestionSetError) return {path: `${fallbackPath}.version.prompt`, message: error.message};
    return {path: fallbackPath, message: error instanceof Error ? error.message : String(error)};
}

function listRows(items: readonly string[]): string {
    return items.length <= shownRows ? items.join(", ") : `${items.slice(0, shownRows).join(", ")} and ${items.length - shownRows} more`;
}

/** Each decision question's label column (the dataset's label columns first): values must name one of its options. */
function checkLabels(spec: ExperimentSpec, dataset: Dataset, rows: readonly number[], errors: InputProblem[], warnings: InputProblem[]) {
    const seen = new Set<string>();
    spec.variants.forEach((variant, index) => {
        const prompt = variant.version.prompt;
        if (prompt.kind !== "decision") return;
        let infos;
        try {
            infos = questionInfos(parseQuestionSet(prompt.questionSet).normalized);
        } catch {
            return;
        }
        for (const info of infos) {
            const name = guessLabelColumn(info.name, dataset.labelColumns) ?? guessLabelColumn(info.name, dataset.columns);
            if (name === null) continue;
            const key = `${name}\u0000${info.name}\u0000${JSON.stringify(info.options)}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const column = dataset.columns.indexOf(name);
            const missing: number[] = [];
            const outside: Array<[number, string]> = [];
            const indexes: Array<[number, string]> = [];
            for (const rowIndex of rows) {
                const label = readLabel(info, dataset.rows[rowIndex][column] ?? null);
                if (label === null) missing.push(rowIndex);
                else if (label === undefined) {
                    const text = cellText(dataset.rows[rowIndex][column]);
                    (info.kind === "score" && isUnreadLevelIndex(info.options, text) ? indexes : outside).push([rowIndex, text]);
                }
            }
            const path = `dataset.columns[${JSON.stringify(name)}]`;
            const where = `in variant ${variant.name} (variants[${index}])`;
            if (indexes.length > 0) {
                const levels = info.options.map((option) => JSON.stringify(option.label)).join(", ");
                errors.push({path, message: `${indexes.length} label${indexes.length === 1 ? " is" : "s are"} a level index (0 = lowest) but no level's label of question ${JSON.stringify(info.name)} ${where}: ` +
                    `${listRows(indexes.map(([row, text]) => `row ${row + 1} ${JSON.stringify(text)}`))}. Its levels are labelled ${levels}, so a number in this column is read as the level with that label, ` +
                    `never as an index: if the column counts levels from 0, its other numbers would be read one level off. Write each row's level as its label`});
            }
            if (outside.length > 0)
                errors.push({path, message: `${outside.length} label${outside.length === 1 ? " is" : "s are"} none of question ${JSON.stringify(info.name)}'s answers (${acceptedLabels(info)}) ${where}: ${listRows(outside.map(([row, text]) => `row ${row + 1} ${JSON.stringify(text)}`))}`});
            if (missing.length === rows.length && rows.length > 0)
                errors.push({path, message: `has no label on any row the experiment runs, so question ${JSON.stringify(info.name)} cannot be scored: fill the column or unmark it as a label column`});
            else if (missing.length > 0)
                warnings.push({path, message: `${missing.length} of ${rows.length} rows have no label for question ${JSON.stringify(info.name)} (${listRows(missing.map((row) => `row ${row + 1}`))}); its metrics use the labelled rows`});
        }
    });
}

/** [row, earlier row it repeats] for each row of `rows` equal in every cell to an earlier one. */
export function repeatedRows(all: readonly SheetRow[], rows: readonly number[]): Array<[number, number]> {
    const first = new Map<string, number>();
    const repeats: Array<[number, number]> = [];
    for (const rowIndex of rows) {
        const key = JSON.stringify(all[rowIndex].map((cell) => cell ?? null));
        const earlier = first.get(key);
        if (earlier === undefined) first.set(key, rowIndex);
        else repeats.push([rowIndex, earlier]);
    }
    return repeats;
}
