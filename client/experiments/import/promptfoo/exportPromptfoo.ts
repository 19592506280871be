import {Document} from "yaml";
import {cellText, templateVariables} from "../../../scoring/requests.ts";
import type {SheetRow} from "../../../scoring/types.ts";
import {replyVariable} from "../../checks.ts";
import {sampleIndexes} from "../../dataset.ts";
import type {Check, Dataset, ExperimentSpec, Variant} from "../../types.ts";
import {ImportError, ImportReport} from "../importProblems.ts";

// An experiment as a promptfoo config that promptfoo runs against the same servers: each variant a provider
// (`openai:chat:svc-1` or `openai:responses:svc-1` at `<server>/svc-1/v1`, its parameters in `config`) running its
// own prompt, each sampled row a test with the columns the model sees as `vars`, each check an assertion with the
// row's expected value written in. A grader (a decision question, a probability) has no promptfoo counterpart: it is
// an `llm-rubric` with the same question, and a comment says so. What cannot be said in promptfoo is reported.

/** The chat model id of this service's API, the model segment of its paths. */
const serviceModel = "svc-1";

type Assertion = Record<string, unknown>;

/** The config's YAML text and the report of what it could not carry. */
export function exportPromptfooConfig(spec: ExperimentSpec, dataset: Dataset, source: string): {yaml: string, report: ImportReport} {
    const report = new ImportReport();
    const prompts: Array<{label: string, raw: string}> = [];
    const providers = spec.variants.map((variant, index) => {
        const {raw, config} = promptOf(variant, index, source, report);
        // Variants that share a prompt share one entry of `prompts`.
        let label = prompts.find((prompt) => prompt.raw === raw)?.label;
        if (label === undefined) {
            label = variant.version.itemName !== "" && !prompts.some((prompt) => prompt.label === variant.version.itemName) ? variant.version.itemName : `prompt ${prompts.length + 1}`;
            prompts.push({label, raw});
        }
        if (!("baseUrl" in variant.connection))
            throw new ImportError({file: source, field: `variants[${index}].connection`}, `the app's connection ${JSON.stringify(variant.connection.profile)}: pass --local <url> (or give the variant a baseUrl) so promptfoo can reach it`);
        const endpoint = variant.version.prompt.kind === "chat" ? variant.version.prompt.endpoint : "chat";
        return {
            id: `openai:${endpoint}:${serviceModel}`,
            label: variant.name,
            prompts: [label],
            config: {apiBaseUrl: `${variant.connection.baseUrl.replace(/\/+$/, "")}/${serviceModel}/v1`, apiKeyEnvar: variant.connection.apiKeyEnv ?? "SVC_API_KEY", ...config, ...variant.params}
        };
    });
    const rows = sampleIndexes(dataset, spec.sample);
    const weighted = spec.checks.length === 1 && spec.checks[0].kind === "weighted" ? spec.checks[0] : null;
    const tests = rows.map((rowIndex) => {
        const row = dataset.rows[rowIndex];
        const vars = Object.fromEntries(dataset.inputColumns.flatMap((column) => {
            const cell = row[dataset.columns.indexOf(column)];
            return cell === null || cell === undefined ? [] : [[column, cell]];
        }));
        const checks = weighted === null ? spec.checks.map((check) => ({weight: undefined, check})) : weighted.parts;
        const assert = checks.flatMap(({weight, check}, index) => {
            const made = assertionOf(check, row, dataset, `checks[${weighted === null ? index : `0].parts[${index}`}]`, source, report);
            return made === null ? [] : [{...made, ...(weight === undefined || weight === 1 ? {} : {weight})}];
        });
        return {vars, ...(assert.length === 0 ? {} : {assert}), ...(weighted === null ? {} : {threshold: weighted.threshold})};
    });
    if (spec.sample.kind !== "all") report.note(`the tests are the ${rows.length} rows the experiment's sample takes`);

    const document = new Document({description: spec.name, prompts, providers, tests});
    const graders = spec.checks.flatMap((check) => check.kind === "grader" ? [check] : check.kind === "weighted" ? check.parts.map((part) => part.check).filter((part) => part.kind === "grader") : []);
    document.commentBefore = [
        ` Exported from the Svc Studio experiment ${JSON.stringify(spec.name)} (${spec.id}): run it with \`promptfoo eval -c <this file>\`.`,
        " Each variant is a provider that runs its own prompt; set each apiKeyEnvar (any value for a server without keys).",
        ...graders.map((grader) => ` Grader ${JSON.stringify(grader.name)} is a decision question in Svc Studio, "${grader.question.replace(/\n/g, " ")}", whose P(yes) passes at ${grader.threshold ?? 0.5}; promptfoo has no such grader, so it is an llm-rubric asking the same question (set defaultTest.options.provider to the model that should judge).`)
    ].join("\n");
    return {yaml: document.toString({lineWidth: 0}), report};
}

/** A variant's prompt as promptfoo's raw prompt (text, or chat messages as JSON) and the rest of its body as config. */
function promptOf(variant: Variant, index: number, source: string, report: ImportReport): {raw: string, config: Record<string, unknown>} {
    const prompt = variant.version.prompt;
    if (prompt.kind !== "chat") throw new ImportError({file: source, field: `variants[${index}].version.prompt`}, "a question-set variant has no promptfoo counterpart: only chat and Responses variants are exported");
    const {messages, input, ...config} = prompt.body as {messages?: unknown, input?: unknown};
    const content = messages ?? input;
    const text = Array.isArray(content) && content.length === 1 && (content[0] as {role?: unknown}).role === "user" && typeof (content[0] as {content?: unknown}).content === "string"
        ? (content[0] as {content: string}).content
        : typeof content === "string" ? content : JSON.stringify(content);
    for (const name of templateVariables(JSON.stringify(prompt.body)))
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) report.notImported({file: source, field: `variants[${index}].version.prompt.body`}, `{{${name}}} is no Nunjucks variable name: rename the column (letters, digits, _) for promptfoo to fill it`);
    if (/\\\{\{/.test(text)) report.notImported({file: source, field: `variants[${index}].version.prompt.body`}, "a literal \\{{ is read by promptfoo's Nunjucks as the start of a variable");
    return {raw: text, config};
}

/** One check of one row as a promptfoo assertion, or null when it does not apply to the row (`when`) or cannot be said. */
function assertionOf(check: Check, row: SheetRow, dataset: Dataset, field: string, source: string, report: ImportReport): Assertion | null {
    const cell = (column: string) => cellText(row[dataset.columns.indexOf(column)]);
    if (check.when !== undefined && cell(check.when).trim() === "") return null;
    const not = check.negate === true ? "not-" : "";
    const place = {file: source, field};
    switch (check.kind) {
        case "equals":
            if (check.caseSensitive === true) return {type: `${not}equals`, value: cell(check.column).trim()};
            return {type: "javascript", value: `${not === "" ? "" : "!"}(output.trim().toLowerCase() === ${JSON.stringify(cell(check.column).trim().toLowerCase())})`};
        case "contains":
            return {type: `${not}${check.caseSensitive === true ? "contains" : "icontains"}`, value: cell(check.column).trim()};
        case "starts_with":
            if (check.caseSensitive === true) return {type: `${not}starts-with`, value: cell(check.column).trim()};
            return {type: "javascript", value: `${not === "" ? "" : "!"}output.trim().toLowerCase().startsWith(${JSON.stringify(cell(check.column).trim().toLowerCase())})`};
        case "contains_any":
        case "contains_all": {
            const text = cell(check.column).trim();
            let list: unknown = text;
            try {
                list = text.startsWith("[") ? JSON.parse(text) : [text];
            } catch {
                list = [text];
            }
            return {type: `${not}${check.caseSensitive === true ? "" : "i"}${check.kind === "contains_any" ? "contains-any" : "contains-all"}`, value: list};
        }
        case "regex":
            if ((check.flags ?? "") !== "") report.notImported({...place, field: `${field}.flags`}, "promptfoo's regex assertion takes no flags: the pattern is exported without them");
            return {type: `${not}regex`, value: check.pattern};
        case "is_json":
            return {type: `${not}is-json`};
        case "json_schema":
            return {type: `${not}is-json`, value: check.schema};
        case "contains_json":
            return {type: `${not}contains-json`};
        case "tool_calls":
            return {type: `${not}is-valid-openai-tools-call`};
        case "grader":
            return {type: "llm-rubric", value: rubricOf(check, row, dataset), ...(check.threshold === undefined ? {} : {threshold: check.threshold})};
        case "weighted":
            return {type: "assert-set", threshold: check.threshold, assert: check.parts.flatMap((part, index) => {
                const made = assertionOf(part.check, row, dataset, `${field}.parts[${index}]`, source, report);
                return made === null ? [] : [{...made, weight: part.weight}];
            })};
    }
}

/**
 * A grader's question as a rubric for the row: the template filled with the row (the reply left to promptfoo's
 * grader, which sees the output anyway). A template of the import's shape (`Rubric: <r>` then the output) gives <r>.
 */
function rubricOf(check: Extract<Check, {kind: "grader"}>, row: SheetRow, dataset: Dataset): string {
    const filled = check.template.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (whole, name: string) => name === replyVariable ? whole : cellText(row[dataset.columns.indexOf(name)]));
    const imported = /^Rubric: ([\s\S]*)\n\nOutput:\n\{\{reply\}\}$/.exec(filled);
    if (imported !== null && check.question === "Does the output meet the rubric?") return imported[1];
    const context = filled.replace(/\{\{\s*reply\s*\}\}/g, "").trim();
    return context === "" ? check.question : `${check.question}\n\n${context}`;
}
