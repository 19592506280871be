import type {CallContext} from "../../../scoring/TaskRunner.ts";
import {checkNames, compileChecks} from "../../checks.ts";
import {sampleIndexes} from "../../dataset.ts";
import type {ExperimentResults} from "../../resultsFile.ts";
import type {CellResult, CheckResult, Dataset, ExperimentSpec} from "../../types.ts";
import {ImportError, type ImportReport} from "../importProblems.ts";
import {isRecord, type YamlFile} from "../yamlDocument.ts";
import {messageText} from "./evalTemplates.ts";

// A run's output items (`GET /v1/evals/{eval_id}/runs/{run_id}/output_items`, a list of `eval.run.output_item`) as the
// results of that run's variant: each item's sample is the cell of its data source row (`datasource_item_id`), its
// reply the sample's output text. The string checks are judged again on that reply (they read it the same way);
// a grader's verdict is the one OpenAI's grader gave (`results[]`, by the grader's name), since asking it again would
// not be that run's verdict. The file is a results file, so a new run compares against it (`svc-studio eval
// --baseline`, or two kept experiments in the app).

const noGrade = async (): Promise<never> => {
    throw new Error("a previous run's grades are OpenAI's, not asked again");
};

/** The previous run's results for the experiment's `variant`, as a results file holding that variant alone. */
export async function previousRunResults(spec: ExperimentSpec & {dataset: Dataset}, variant: number, outputs: YamlFile, report: ImportReport): Promise<ExperimentResults> {
    const root = outputs.value;
    const items = Array.isArray(root) ? root : isRecord(root) && Array.isArray(root.data) ? root.data : null;
    if (items === null) throw new ImportError(outputs.place([]), "output items are a list object ({\"object\": \"list\", \"data\": [...]}) of eval.run.output_item");
    if (isRecord(root) && root.has_more === true) report.notImported(outputs.place(["has_more"]), "the list has more pages: only the output items in this file are the previous run's results");
    const names = checkNames(spec.checks);
    const context: CallContext = {signal: new AbortController().signal, timeoutMs: 1000, retry: {}};
    const experiment = {...spec, variants: [spec.variants[variant]]};
    const rows = sampleIndexes(spec.dataset, spec.sample);
    const cells: CellResult[] = [];
    const seen = new Set<number>();
    for (const [index, item] of items.entries()) {
        const at = (field?: string) => outputs.place([...(Array.isArray(root) ? [] : ["data"]), index, ...(field === undefined ? [] : [field])]);
        if (!isRecord(item)) throw new ImportError(at(), "an output item must be an object");
        const rowIndex = item.datasource_item_id;
        if (typeof rowIndex !== "number" || !Number.isInteger(rowIndex) || rowIndex < 0 || rowIndex >= spec.dataset.rows.length)
            throw new ImportError(at("datasource_item_id"), `must be the index of an item of the data (0 to ${spec.dataset.rows.length - 1})`);
        if (seen.has(rowIndex)) throw new ImportError(at("datasource_item_id"), `item ${rowIndex} has an earlier output item`);
        seen.add(rowIndex);
        if (!rows.includes(rowIndex)) continue;
        const sample = isRecord(item.sample) ? item.sample : {};
        const completedAt = typeof item.created_at === "number" ? item.created_at * 1000 : 0;
        const request = {messages: Array.isArray(sample.input) ? sample.input : []};
        if (isRecord(sample.error) && (sample.error.code !== undefined || sample.error.message !== undefined)) {
            cells.push({rowIndex, variant: 0, ok: false, request, error: {status: null, code: String(sample.error.code ?? "error"), message: String(sample.error.message ?? "")}, latencyMs: 0, attempts: 0, completedAt});
            continue;
        }
        const output = Array.isArray(sample.output) && isRecord(sample.output[0]) ? messageText(sample.output[0].content) : null;
        if (output === null) throw new ImportError(at("sample"), "the sample has no output text (sample.output[0].content)");
        const graded = Array.isArray(item.results) ? item.results.filter(isRecord) : [];
        const checks: CheckResult[] = [];
        for (const [position, check] of spec.checks.entries()) {
            const name = names[position];
            if (check.kind === "grader") {
                const result = graded.find((entry) => entry.name === check.name || String(entry.name).startsWith(`${check.name}-`));
                if (result === undefined) continue;
                const score = typeof result.score === "number" ? Math.max(0, Math.min(1, result.score)) : result.passed === true ? 1 : 0;
                checks.push({name, pass: result.passed === true, score, detail: "the previous run's grade, by OpenAI's grader"});
            } else if (check.kind !== "weighted") {
                const [result] = await compileChecks([check], spec.dataset.columns).run(output, spec.dataset.rows[rowIndex], noGrade, context);
                checks.push({...result, name});
            }
        }
        const usage = isRecord(sample.usage) && typeof sample.usage.prompt_tokens === "number"
            ? {usage: {promptTokens: sample.usage.prompt_tokens, completionTokens: Number(sample.usage.completion_tokens ?? 0), totalTokens: Number(sample.usage.total_tokens ?? 0)}} : {};
        cells.push({rowIndex, variant: 0, ok: true, request, response: sample, reply: output, checks, ...usage, latencyMs: 0, attempts: 0, completedAt});
    }
    const missing = rows.length - cells.length;
    if (missing > 0) report.note(`the previous run has no output for ${missing} of the ${rows.length} rows: they are left out of its results`);
    cells.sort((a, b) => a.rowIndex - b.rowIndex);
    return {experiment, rowIndexes: rows, cells};
}
