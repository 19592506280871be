import {type QuestionInfo, readAnswers, type NormalizedAnswer, type QuestionSet} from "./questions.ts";
import {calibrateAnswer} from "./calibration.ts";
import {readScore, scoreDefinitions} from "./scoreLevels.ts";
import type {CellValue, RowResult, JobRecord, JobSpec, ResultCounts, ResultStore, RowBatch, SheetRow, StoredResult} from "./types.ts";

/**
 * The answer columns a question adds to an export, in this order:
 * - yes/no: `<name>.probability` (P(true))
 * - choice: `<name>.choice`, `<name>.confidence`, `<name>.p.<value>` per option
 * - score: `<name>.score` (expected score), `<name>.level` (most likely level, scoreLevels.ts), `<name>.confidence`,
 *   `<name>.p.<level index>` per level
 * then `<name>.explanation` when the set asks for explanations, and `<name>.calibrated` when the set carries a
 * calibration for it (the numbers are then calibrated ones; the column holds true).
 */
export function questionColumns(info: QuestionInfo, options: {explain: boolean, calibrated: boolean}): string[] {
    return describedColumns(info, options).map(([column]) => column);
}

const confidenceHint = "Confidence: the top probability rescaled so that 0 is an even split across the options and 1 is certainty";

/** Each answer column of a question with what it holds, in the order of questionColumns. */
function describedColumns(info: QuestionInfo, options: {explain: boolean, calibrated: boolean}): Array<[string, string]> {
    const columns: Array<[string, string]> = [];
    const name = info.name;
    if (info.kind === "yesno") columns.push([`${name}.probability`, "P(true): the probability that the statement is true"]);
    else {
        if (info.kind === "choice") columns.push([`${name}.choice`, "The most likely value"]);
        else columns.push([`${name}.score`, scoreDefinitions.expected], [`${name}.level`, scoreDefinitions.predicted]);
        columns.push([`${name}.confidence`, confidenceHint]);
        for (const option of info.options)
            columns.push([`${name}.p.${String(option.value)}`, `Probability of ${info.kind === "score" ? `level ${String(option.value)} (${option.label})` : JSON.stringify(option.value)}`]);
    }
    if (options.explain) columns.push([`${name}.explanation`, "The model's one-sentence explanation"]);
    if (options.calibrated) columns.push([`${name}.calibrated`, "True: the numbers went through the calibration saved with the question set"]);
    return columns;
}

/** Name of the per-row error column: `error`, or `_error`, `__error`... when the sheet has such a column. */
export function errorColumnName(sourceColumns: readonly string[]): string {
    let name = "error";
    while (sourceColumns.includes(name)) name = `_${name}`;
    return name;
}

export type ResultLayout = {
    /** Answer columns of every question, then the error column. */
    columns: string[],
    /** What each of `columns` holds, in words (a header's hover text). */
    hints: string[],
    /** The cells of those columns for one row's result (all empty when the row has none yet). */
    cells(result: RowResult | undefined): CellValue[],
    /** The row's answers (calibrated where the set has a calibration); null for an error or no result. */
    answers(result: RowResult | undefined): NormalizedAnswer[] | null
};

/**
 * How results become flat columns for a table or an export (see questionColumns for the names). An error
 * row leaves the answer cells empty and writes `<status> <code>: <message>` into the error column.
 */
export function resultLayout(questionSet: QuestionSet, infos: readonly QuestionInfo[], sourceColumns: readonly string[]): ResultLayout {
    const explain = questionSet.x_svc?.explain === true;
    const calibration = questionSet.calibration ?? {};
    const perQuestion = infos.map((info) => describedColumns(info, {explain, calibrated: calibration[info.name] !== undefined}));
    const errorColumn = errorColumnName(sourceColumns);
    const width = perQuestion.reduce((sum, columns) => sum + columns.length, 0) + 1;

    const answers = (result: RowResult | undefined): NormalizedAnswer[] | null => {
        if (result === undefined || !result.ok || result.response === undefined) return null;
        return readAnswers(questionSet.format, infos, result.response).map((answer, index) => {
            const fitted = calibration[infos[index].name];
            return fitted === undefined ? answer : calibrateAnswer(infos[index], fitted, answer);
        });
    };

    return {
        columns: [...perQuestion.flat().map(([column]) => column), errorColumn],
        hints: [...perQuestion.flat().map(([, hint]) => hint), "Why the row has no answer: the HTTP status, error code and message"],
        answers,
        cells(result) {
            if (result === undefined) return new Array<CellValue>(width).fill(null);
            if (!result.ok) {
                const error = result.error;
                const text = error === undefined ? "failed" : `${error.status ?? "-"} ${error.code}: ${error.message}`;
                return [...new Array<CellValue>(width - 1).fill(null), text];
            }
            const cells: CellValue[] = [];
            answers(result)!.forEach((answer, index) => {
                const info = infos[index];
                if (info.kind === "yesno") cells.push(answer.probabilities[0]);
                else {
                    if (info.kind === "choice") cells.push(toCell(answer.choice));
                    else {
                        const {expected, mostLikely} = readScore(answer);
                        cells.push(expected, mostLikely);
                    }
                    cells.push(answer.confidence ?? null, ...answer.probabilities);
                }
                if (explain) cells.push(answer.explanation ?? null);
                if (calibration[info.name] !== undefined) cells.push(true);
            });
            cells.push(null);
            return cells;
        }
    };
}

function toCell(value: string | number | boolean | undefined): CellValue {
    return value === undefined ? null : value;
}

/** A ResultStore in memory, for browser sessions and tests: same semantics as the SQLite one, no durability. */
export class MemoryResultStore<R extends StoredResult = RowResult, S = JobSpec> implements ResultStore<R, S> {
    private readonly jobs = new Map<string, JobRecord<S>>();
    private readonly results = new Map<string, Map<number, R>>();

    public async getJob(jobId: string): Promise<JobRecord<S> | null> {
        const job = this.jobs.get(jobId);
        return job === undefined ? null : structuredClone(job);
    }

    public async createJob(record: JobRecord<S>): Promise<void> {
        if (this.jobs.has(record.jobId)) throw new Error(`job ${record.jobId} exists`);
        this.jobs.set(record.jobId, structuredClone(record));
        this.results.set(record.jobId, new Map());
    }

    public async updateJob(jobId: string, patch: Partial<Pick<JobRecord<S>, "status" | "totalRows" | "error">>): Promise<void> {
        const job = this.job(jobId);
        Object.assign(job, patch, {updatedAt: Date.now()});
    }

    public async putResult(jobId: string, result: R): Promise<boolean> {
        this.job(jobId);
        const rows = this.results.get(jobId)!;
        if (rows.has(result.rowIndex)) return false;
        rows.set(result.rowIndex, structuredClone(result));
        return true;
    }

    public async doneRowIndexes(jobId: string): Promise<Set<number>> {
        return new Set(this.results.get(jobId)?.keys() ?? []);
    }

    public async countResults(jobId: string): Promise<ResultCounts> {
        let ok = 0, errors = 0;
        for (const result of this.results.get(jobId)?.values() ?? []) {
            if (result.ok) ok++;
            else errors++;
        }
        return {ok, errors};
    }

    public async readResults(jobId: string, fromIndex = 0, limit = Number.MAX_SAFE_INTEGER): Promise<R[]> {
        return [...this.results.get(jobId)?.values() ?? []]
            .filter((result) => result.rowIndex >= fromIndex)
            .sort((a, b) => a.rowIndex - b.rowIndex)
            .slice(0, limit)
            .map((result) => structuredClone(result));
    }

    public async deleteErrors(jobId: string): Promise<number> {
        const rows = this.results.get(jobId);
        let deleted = 0;
        for (const [index, result] of rows ?? []) if (!result.ok && rows!.delete(index)) deleted++;
        return deleted;
    }

    public async deleteJob(jobId: string): Promise<void> {
        this.jobs.delete(jobId);
        this.results.delete(jobId);
    }

    public async close(): Promise<void> {}

    private job(jobId: string): JobRecord<S> {
        const job = this.jobs.get(jobId);
        if (job === undefined) throw new Error(`no job ${jobId}`);
        return job;
    }
}

/**
 * The rows of an export: each source row followed by its answer cells (ResultLayout), in table order.
 * Columns: the table's columns, then `layout.columns`. Feed them to buildCsvBlob / buildXlsx (browser) or
 * node/writeCsvFile / node/writeXlsxFile.
 */
export async function* exportRows(rows: AsyncIterable<RowBatch>, store: ResultStore, jobId: string, layout: ResultLayout): AsyncGenerator<CellValue[], void, undefined> {
    for await (const {row, result} of joinResults(rows, store, jobId)) yield [...row, ...layout.cells(result)];
}

export type JoinedRow = {rowIndex: number, row: SheetRow, result: RowResult | undefined};

/**
 * Each table row with its stored result (undefined while it has none), in table order: what an export, a
 * results grid or an evaluation against a label column walks through. The table is read again from its
 * source and the results are read page by page, so neither is held whole.
 */
export async function* joinResults(rows: AsyncIterable<RowBatch>, store: ResultStore, jobId: string, pageSize = 1000): AsyncGenerator<JoinedRow, void, undefined> {
    let page: RowResult[] = [];
    let position = 0;
    let nextFrom = 0;
    let exhausted = false;
    const resultFor = async (rowIndex: number): Promise<RowResult | undefined> => {
        for (;;) {
            while (position < page.length && page[position].rowIndex < rowIndex) position++;
            if (position < page.length) return page[position].rowIndex === rowIndex ? page[position] : undefined;
            if (exhausted) return undefined;
            page = await store.readResults(jobId, nextFrom, pageSize);
            position = 0;
            if (page.length < pageSize) exhausted = true;
            if (page.length > 0) nextFrom = page[page.length - 1].rowIndex + 1;
        }
    };
    for await (const batch of rows)
        for (let offset = 0; offset < batch.rows.length; offset++) {
            const rowIndex = batch.start + offset;
            yield {rowIndex, row: batch.rows[offset], result: await resultFor(rowIndex)};
        }
}
