import type {Check} from "../../types.ts";
import {ImportError, type ImportReport} from "../importProblems.ts";
import {isRecord, type YamlFile} from "../yamlDocument.ts";
import {readMessages, translateTemplate} from "./evalTemplates.ts";

// An eval's `testing_criteria` as checks. string_check compares the reply with an item field: eq is equals, ne a
// negated equals, like contains, ilike contains in any case. label_model is a choice decision question over its
// labels whose grade is the probability of its passing_labels, where OpenAI samples one label; score_model a score
// question over its range, passing at pass_threshold. text_similarity, python, multi and endpoint graders run code or
// metrics the experiment has no check for, and are reported.

/** A column every row holds the same value in (a string_check's literal reference). */
export type ConstantColumn = {name: string, value: string};

export type EvalChecks = {checks: Check[], constants: ConstantColumn[], referenced: string[]};

/** Levels a score_model's range is asked in: five, evenly spaced. */
const scoreLevels = 5;

export function importCriteria(source: YamlFile, report: ImportReport): EvalChecks {
    const root = source.value as Record<string, unknown>;
    const criteria = root.testing_criteria;
    if (!Array.isArray(criteria)) throw new ImportError(source.place(["testing_criteria"]), "an eval needs its testing_criteria, a list of graders");
    const result: EvalChecks = {checks: [], constants: [], referenced: []};
    const refer = (columns: readonly string[]) => columns.forEach((column) => result.referenced.includes(column) || result.referenced.push(column));
    criteria.forEach((grader, index) => {
        const path = ["testing_criteria", index];
        const place = source.place(path);
        if (!isRecord(grader) || typeof grader.type !== "string") throw new ImportError(place, "a grader must be an object with a type");
        const name = typeof grader.name === "string" && grader.name.trim() !== "" ? grader.name : `${grader.type}_${index + 1}`;
        const leave = (reason: string) => report.notImported(place, `${grader.type} ${JSON.stringify(name)}: ${reason}`);
        // `id` names the grader in a run's results, which are not imported; the check is named by `name`.
        const known = {string_check: ["input", "reference", "operation"], label_model: ["input", "labels", "passing_labels", "model"], score_model: ["input", "range", "pass_threshold", "model", "sampling_params"]}[grader.type as string];
        if (known !== undefined)
            for (const field of Object.keys(grader)) if (!["type", "name", "id", ...known].includes(field)) report.notImported(source.place([...path, field]), `the grader's ${field} has no counterpart in a check`);
        if (grader.type === "string_check") {
            const input = typeof grader.input === "string" ? grader.input.trim() : "";
            if (input !== "{{sample.output_text}}") return leave("only a string_check of the reply ({{sample.output_text}}) against a reference is imported");
            const reference = typeof grader.reference === "string" ? grader.reference : "";
            const field = /^\{\{\s*item\.([^.[\]{}]+?)\s*\}\}$/.exec(reference.trim());
            let column: string;
            if (field !== null) {
                column = field[1];
                refer([column]);
            } else if (!reference.includes("{{")) {
                column = `${name} reference`;
                result.constants.push({name: column, value: reference});
            } else return leave(`the reference ${JSON.stringify(reference)} is no single {{item.<field>}} or text`);
            const operation = grader.operation;
            if (operation === "eq" || operation === "ne") result.checks.push({kind: "equals", column, caseSensitive: true, ...(operation === "ne" ? {negate: true} : {})});
            else if (operation === "like" || operation === "ilike") result.checks.push({kind: "contains", column, caseSensitive: operation === "like"});
            else return leave(`the operation ${JSON.stringify(operation)} is none of eq, ne, like, ilike`);
            return;
        }
        if (grader.type === "label_model" || grader.type === "score_model") {
            const read = readMessages(grader.input);
            if ("bad" in read) return leave(`its input${read.bad === null ? "" : `[${read.bad}]`} is no list of text messages`);
            // The system / developer messages ask the question; the others are the input the question is asked of.
            const question = read.messages.filter((message) => message.role === "system" || message.role === "developer").map((message) => message.content).join("\n\n");
            const input = translateTemplate(read.messages.filter((message) => message.role !== "system" && message.role !== "developer").map((message) => message.content).join("\n\n"));
            const asked = translateTemplate(question);
            const problem = input.problem ?? asked.problem;
            if (problem !== null) return leave(problem);
            if (asked.columns.length > 0) return leave("its question (the system message) names item fields; only the user message may");
            refer(input.columns);
            const template = input.text.includes("{{reply}}") ? input.text : `${input.text}\n\nOutput:\n{{reply}}`.trim();
            for (const field of ["model", "sampling_params"]) if (grader[field] !== undefined) report.notImported(source.place([...path, field]), `the grader's ${field}: a grader asks the decision question on the server's /v1/decisions`);
            const base = {kind: "grader" as const, name, question: question.trim() === "" ? "Which label fits the output?" : question, template};
            if (grader.type === "label_model") {
                const labels = Array.isArray(grader.labels) ? grader.labels.filter((label): label is string => typeof label === "string") : [];
                const passing = Array.isArray(grader.passing_labels) ? grader.passing_labels.filter((label): label is string => typeof label === "string") : [];
                if (labels.length < 2 || passing.length === 0) return leave("needs two or more labels and one or more passing_labels");
                result.checks.push({...base, labels, passing});
                return;
            }
            const range = Array.isArray(grader.range) && grader.range.length === 2 && grader.range.every((end) => typeof end === "number") ? grader.range as [number, number] : [0, 1];
            if (!(range[1] > range[0])) return leave(`its range ${JSON.stringify(grader.range)} is no [low, high]`);
            const threshold = typeof grader.pass_threshold === "number" ? grader.pass_threshold : undefined;
            const levels = Array.from({length: scoreLevels}, (_, level) => range[0] + (range[1] - range[0]) * level / (scoreLevels - 1));
            result.checks.push({...base, levels, ...(threshold === undefined ? {} : {threshold: Math.max(0, Math.min(1, (threshold - range[0]) / (range[1] - range[0])))})});
            return;
        }
        leave(grader.type === "python" ? "a Python grader is not imported (no code from an eval is run)"
            : grader.type === "text_similarity" ? "text similarity metrics (fuzzy_match, BLEU, ROUGE, cosine...) have no check in an experiment"
                : "this grader type has no check in an experiment");
    });
    return result;
}
