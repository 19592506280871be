import type {CellValue} from "../../../scoring/types.ts";
import {datasetFromTable, maxDatasetRows} from "../../dataset.ts";
import type {ExperimentResults} from "../../resultsFile.ts";
import type {ExperimentSpec, Variant} from "../../types.ts";
import {cellValue, importedExperiment, uniqueNames} from "../importedExperiment.ts";
import {ImportError, ImportReport, jsonLines, readReferenced, type SourceFiles} from "../importProblems.ts";
import {isRecord, parseYamlFile, type YamlFile} from "../yamlDocument.ts";
import {importCriteria} from "./evalGraders.ts";
import {readMessages, translateTemplate} from "./evalTemplates.ts";
import {previousRunResults} from "./evalOutputs.ts";

// An OpenAI eval, as its API returns it, as an experiment: the data source's items (a JSONL file of `{"item": ...}`
// lines, or a run's inline `file_content`) are the rows, the eval's testing_criteria the checks (evalGraders.ts),
// and each run's prompt template, model and sampling parameters a variant. The eval object holds no prompt: at
// least one run (`GET /v1/evals/{eval_id}/runs/{run_id}`) must be given.

/** `outputItemsFile`: the first run's output items, which become that run's results (evalOutputs.ts). */
export type OpenAiEvalInput = {evalFile: string, runFiles: string[], dataFile?: string, outputItemsFile?: string, id: string, createdAt?: number};

const evalFields = ["object", "id", "name", "data_source_config", "testing_criteria", "created_at", "metadata"];
/** What a run reports about itself and its results: not part of what runs again. */
const runOutcomeFields = ["object", "id", "eval_id", "status", "created_at", "report_url", "result_counts", "per_model_usage", "per_testing_criteria_results", "error", "metadata", "shared_with_openai"];

export async function importOpenAiEval(input: OpenAiEvalInput, files: SourceFiles): Promise<{spec: ExperimentSpec, report: ImportReport, previous?: ExperimentResults}> {
    const report = new ImportReport();
    try {
        const evalSource = parseYamlFile(input.evalFile, await readReferenced(files, input.evalFile, {file: input.evalFile, field: ""}));
        if (!isRecord(evalSource.value)) throw new ImportError({file: input.evalFile, line: 1, field: ""}, "an eval is a JSON object with testing_criteria");
        for (const field of Object.keys(evalSource.value)) if (!evalFields.includes(field)) report.notImported(evalSource.place([field]), `${field} has no counterpart in an experiment`);
        if (isRecord(evalSource.value.metadata) && Object.keys(evalSource.value.metadata).length > 0) report.notImported(evalSource.place(["metadata"]), "the eval's metadata has no counterpart in an experiment");
        const criteria = importCriteria(evalSource, report);
        const runs: YamlFile[] = [];
        for (const file of input.runFiles) runs.push(parseYamlFile(file, await readReferenced(files, file, {file, field: "--run"})));
        if (runs.length === 0) throw new ImportError({file: input.evalFile, field: ""}, "an eval holds no prompt: give one of its runs (--run run.json), whose data_source holds the prompt template, the model and its sampling parameters");
        const prompts = runs.map((run) => runVariant(run, input.createdAt ?? 0, report));
        const items = await readItems(input, runs[0], files, report);

        const schema = isRecord(evalSource.value.data_source_config) && isRecord(evalSource.value.data_source_config.item_schema) && isRecord(evalSource.value.data_source_config.item_schema.properties)
            ? Object.keys(evalSource.value.data_source_config.item_schema.properties) : [];
        const fields = [...schema];
        for (const item of items) for (const key of Object.keys(item)) if (!fields.includes(key)) fields.push(key);
        const promptColumns = [...new Set(prompts.flatMap((prompt) => prompt.columns))];
        for (const column of [...promptColumns, ...criteria.referenced])
            if (!fields.includes(column)) throw new ImportError({file: input.evalFile, field: `{{item.${column}}}`}, `no item has the field ${JSON.stringify(column)} (fields: ${fields.map((name) => JSON.stringify(name)).join(", ")})`);
        const columns = [...fields, ...criteria.constants.map((constant) => constant.name)];
        const rows = items.map((item): CellValue[] => [...fields.map((field) => cellValue(item[field])), ...criteria.constants.map((constant) => constant.value)]);
        const labelColumns = columns.filter((column) => !promptColumns.includes(column) && (criteria.referenced.includes(column) || criteria.constants.some((constant) => constant.name === column)));
        const dataset = {...datasetFromTable({name: `${input.id} items`, columns, rows, labelColumns, inputColumns: promptColumns}), id: `${input.id}-items`};
        const name = typeof evalSource.value.name === "string" ? evalSource.value.name : input.id;
        const variants = uniqueNames(prompts.map((prompt) => prompt.variant));
        const spec = importedExperiment({file: input.evalFile, id: input.id, name, dataset, variants, checks: criteria.checks, createdAt: input.createdAt}, report);
        if (input.outputItemsFile === undefined) return {spec, report};
        const outputs = parseYamlFile(input.outputItemsFile, await readReferenced(files, input.outputItemsFile, {file: input.outputItemsFile, field: "--output-items"}));
        return {spec, report, previous: await previousRunResults({...spec, dataset}, 0, outputs, report)};
    } catch (error) {
        if (error instanceof ImportError) error.report = report;
        throw error;
    }
}

/** A run's data source as a variant: its template as chat (or Responses) messages, its model and sampling params. */
function runVariant(run: YamlFile, createdAt: number, report: ImportReport): {variant: Variant, columns: string[]} {
    const root = run.value;
    if (!isRecord(root) || !isRecord(root.data_source)) throw new ImportError(run.place(["data_source"]), "a run must have its data_source");
    for (const field of Object.keys(root)) {
        if (runOutcomeFields.includes(field)) continue;
        if (!["name", "model", "data_source"].includes(field)) report.notImported(run.place([field]), `the run's ${field} has no counterpart in an experiment`);
    }
    if (root.result_counts !== undefined || root.per_testing_criteria_results !== undefined)
        report.notImported(run.place(["result_counts"]), "the run's results are not imported: the experiment runs the prompt again and grades it with its own checks");
    const source = root.data_source;
    const at = (field: string) => run.place(["data_source", field]);
    if (source.type !== "completions" && source.type !== "responses")
        throw new ImportError(at("type"), `a ${JSON.stringify(source.type)} data source has no prompt to run (only completions and responses runs become variants)`);
    const template = isRecord(source.input_messages) ? source.input_messages : {};
    if (template.type !== "template") throw new ImportError(at("input_messages"), "only a template of input messages is imported (an item_reference to messages in the items is not)");
    const read = readMessages(template.template);
    if ("bad" in read) throw new ImportError(run.place(["data_source", "input_messages", "template", ...(read.bad === null ? [] : [read.bad])]), "must be a list of text messages");
    const columns: string[] = [];
    const messages = read.messages.map((message, index) => {
        const translated = translateTemplate(message.content);
        if (translated.problem !== null) throw new ImportError(run.place(["data_source", "input_messages", "template", index]), translated.problem);
        if (translated.text.includes("{{reply}}")) throw new ImportError(run.place(["data_source", "input_messages", "template", index]), "a prompt cannot name the reply it is about to get ({{sample.output_text}})");
        columns.push(...translated.columns);
        return {role: message.role, content: translated.text};
    });
    const chat = source.type === "completions";
    const params: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(isRecord(source.sampling_params) ? source.sampling_params : {})) {
        if (field === "max_completions_tokens" || field === "max_completion_tokens") params[chat ? "max_tokens" : "max_output_tokens"] = value;
        else if (["temperature", "top_p", "seed", "response_format", "tools", "text"].includes(field)) params[field] = value;
        else report.notImported(run.place(["data_source", "sampling_params", field]), `${field} is no request parameter a variant sends`);
    }
    for (const field of Object.keys(source)) if (!["type", "source", "input_messages", "model", "sampling_params"].includes(field)) report.notImported(at(field), `the data source's ${field} has no counterpart in an experiment`);
    const model = typeof source.model === "string" ? source.model : typeof root.model === "string" ? root.model : undefined;
    const name = typeof root.name === "string" && root.name !== "" ? root.name : model ?? "run";
    report.note(`run ${name}: its variant runs on the app's local engine (svc-studio eval --local <url>, or svc-studio import --base-url <url>)`);
    return {
        columns,
        variant: {
            name,
            version: {itemId: `openai-eval:${name}`, itemName: name, version: 1, note: `imported from an OpenAI eval run (${run.file.split(/[\\/]/).pop()})`, createdAt,
                prompt: {kind: "chat", endpoint: chat ? "chat" : "responses", body: chat ? {messages} : {input: messages}}},
            connection: {profile: "local"},
            ...(model === undefined ? {} : {model}),
            ...(Object.keys(params).length === 0 ? {} : {params})
        }
    };
}

/** The items: the --data JSONL (read line by line), else the first run's inline file_content. */
async function readItems(input: OpenAiEvalInput, run: YamlFile, files: SourceFiles, report: ImportReport): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    const take = (value: unknown, file: string, line: number | undefined, field: string) => {
        if (!isRecord(value) || !isRecord(value.item)) throw new ImportError({file, line, field}, "each line of an eval's data is an object with its item: {\"item\": {...}}");
        for (const key of Object.keys(value)) {
            if (key === "sample") report.notImported({file, line, field: `${field}sample`}, "a pre-generated sample is not imported: the experiment asks its variants again");
            else if (key !== "item") report.notImported({file, line, field: `${field}${key}`}, `${key} has no counterpart in an experiment`);
        }
        items.push(value.item);
        if (items.length > maxDatasetRows) throw new ImportError({file, line, field}, `more than ${maxDatasetRows.toLocaleString("en-US")} items, the most a dataset holds: split the data`);
    };
    if (input.dataFile !== undefined) {
        for await (const {line, value} of jsonLines(files, input.dataFile, {file: input.dataFile, field: "--data"})) take(value, input.dataFile, line, "");
        return items;
    }
    const source = isRecord(run.value) && isRecord(run.value.data_source) && isRecord(run.value.data_source.source) ? run.value.data_source.source : {};
    if (source.type === "file_content" && Array.isArray(source.content)) {
        source.content.forEach((value, index) => take(value, run.file, run.place(["data_source", "source", "content", index]).line, `data_source.source.content[${index}].`));
        return items;
    }
    throw new ImportError(run.place(["data_source", "source"]), `the run's data is ${source.type === "file_id" ? `the uploaded file ${JSON.stringify(source.id)}` : "not inline"}: pass --data <file.jsonl> with its lines`);
}
