import {CsvSpreadsheet} from "../../../scoring/csv.ts";
import {maxDatasetRows} from "../../dataset.ts";
import {fileProblem, ImportError, jsonLines, readReferenced, type ImportReport, type Place, type SourceFiles} from "../importProblems.ts";
import {isRecord, parseYamlFile, type FieldPath, type YamlFile} from "../yamlDocument.ts";

// promptfoo's `tests` and `defaultTest` as plain test cases: inline, or from `file://` YAML, JSON, JSONL or CSV files
// (a CSV's columns are variables, its `__expected` columns assertions written as promptfoo writes them, such as
// `contains: Paris`, `not-icontains: sorry` or `grade: is polite`). JSONL and CSV files are read as streams, a row
// at a time. A list-valued variable makes one test per value, as promptfoo runs it.

export type RawAssertion = {type: string, value?: unknown, weight?: number, threshold?: number, place: Place};

export type ImportedTest = {vars: Record<string, unknown>, asserts: RawAssertion[], threshold?: number, description?: string, place: Place};

/** promptfoo's assertion types, as its `__expected` cells name them. */
const assertionTypes = new Set(["agent-rubric", "answer-relevance", "bleu", "classifier", "contains", "contains-all", "contains-any", "contains-html", "contains-json",
    "contains-sql", "contains-xml", "context-faithfulness", "context-recall", "context-relevance", "conversation-relevance", "cost", "equals", "factuality", "finish-reason",
    "g-eval", "gleu", "guardrails", "icontains", "icontains-all", "icontains-any", "is-html", "is-json", "is-refusal", "is-sql", "is-valid-function-call",
    "is-valid-openai-function-call", "is-valid-openai-tools-call", "is-xml", "javascript", "latency", "levenshtein", "llm-rubric", "pi", "meteor", "model-graded-closedqa",
    "model-graded-factuality", "moderation", "perplexity", "perplexity-score", "python", "regex", "rouge-n", "ruby", "similar", "starts-with", "webhook", "word-count"]);

/** An `__expected` cell as promptfoo reads it: `type: value`, `not-type(threshold): value`, `grade:`, `fn:`, else equals. */
export function assertionFromCell(text: string, place: Place): RawAssertion {
    const prefixed = /^(javascript|fn|eval|python|grade|llm-rubric):([\s\S]*)$/.exec(text);
    if (prefixed !== null) {
        const type = prefixed[1] === "grade" || prefixed[1] === "llm-rubric" ? "llm-rubric" : prefixed[1] === "python" ? "python" : "javascript";
        return {type, value: type === "llm-rubric" ? prefixed[2] : prefixed[2].trim(), place};
    }
    const match = /^(not-)?([a-z][a-z0-9-]*)(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?$/.exec(text);
    if (match !== null && assertionTypes.has(match[2])) {
        const type = `${match[1] ?? ""}${match[2]}`;
        const value = match[4];
        const list = /^(i?contains-(any|all))$/.test(match[2]);
        return {type, ...(value === undefined ? {} : {value: list ? commaValues(value) : value.trim()}), ...(match[3] === undefined ? {} : {threshold: Number(match[3])}), place};
    }
    return {type: "equals", value: text, place};
}

/** `a, "b, c", d` as promptfoo splits a contains-any cell: commas outside double quotes, items trimmed. */
export function commaValues(text: string): string[] {
    const values: string[] = [];
    let index = 0;
    while (index < text.length) {
        while (index < text.length && (text[index] === "," || text[index].trim() === "")) index++;
        if (index >= text.length) break;
        if (text[index] === "\"") {
            let value = "";
            for (index++; index < text.length && text[index] !== "\""; index++) {
                if (text[index] === "\\" && index + 1 < text.length) index++;
                value += text[index];
            }
            values.push(value);
            while (index < text.length && text[index] !== ",") index++;
        } else {
            const comma = text.indexOf(",", index);
            const end = comma < 0 ? text.length : comma;
            const value = text.slice(index, end).trim();
            if (value !== "") values.push(value);
            index = end;
        }
    }
    return values;
}

/** One assertion object of a YAML test; a field the experiment cannot use is reported. */
function readAssertion(value: unknown, path: FieldPath, source: YamlFile, report: ImportReport): RawAssertion | null {
    const place = source.place(path);
    if (!isRecord(value) || typeof value.type !== "string") throw new ImportError(place, "an assertion must be an object with a type");
    if (value.transform !== undefined) {
        report.notImported(source.place([...path, "transform"]), `${value.type}: an assertion on a transformed output (code run on the reply first) is not imported`);
        return null;
    }
    for (const field of Object.keys(value))
        if (!["type", "value", "weight", "threshold"].includes(field)) report.notImported(source.place([...path, field]), `an assertion's ${field} is not imported (the check is kept without it)`);
    const number = (field: "weight" | "threshold") => {
        const item = value[field];
        if (item === undefined) return {};
        if (typeof item !== "number" || !Number.isFinite(item) || item < 0) throw new ImportError(source.place([...path, field]), "must be a number, 0 or more");
        return {[field]: item};
    };
    return {type: value.type, ...(value.value === undefined ? {} : {value: value.value}), ...number("weight"), ...number("threshold"), place};
}

/** A test object from YAML or JSON (a config's inline test, a line of JSONL, an item of a test file). */
export function readTest(value: unknown, path: FieldPath, source: YamlFile, report: ImportReport): ImportedTest {
    const place = source.place(path);
    if (!isRecord(value)) throw new ImportError(place, "a test must be an object with vars and assert");
    for (const field of Object.keys(value))
        if (!["vars", "assert", "threshold", "description", "options"].includes(field)) report.notImported(source.place([...path, field]), `a test's ${field} has no counterpart in an experiment`);
    // Options that change what the assertions read (a transform of the output) leave them out; the others are reported.
    let transformed = false;
    if (isRecord(value.options))
        for (const option of Object.keys(value.options)) {
            if (option === "transform") transformed = true;
            else report.notImported(source.place([...path, "options", option]), `a test's options.${option} has no counterpart in an experiment`);
        }
    else if (value.options !== undefined) report.notImported(source.place([...path, "options"]), "a test's options has no counterpart in an experiment");
    if (value.vars !== undefined && !isRecord(value.vars)) {
        if (typeof value.vars === "string") report.notImported(source.place([...path, "vars"]), "variables from a file are not imported: write them in the test");
        else throw new ImportError(source.place([...path, "vars"]), "must be a map of variable names to values");
    }
    if (value.assert !== undefined && !Array.isArray(value.assert)) throw new ImportError(source.place([...path, "assert"]), "must be a list of assertions");
    const threshold = value.threshold;
    if (threshold !== undefined && (typeof threshold !== "number" || !Number.isFinite(threshold))) throw new ImportError(source.place([...path, "threshold"]), "must be a number");
    return {
        vars: isRecord(value.vars) ? value.vars : {},
        asserts: ((value.assert as unknown[] | undefined) ?? []).flatMap((item, index) => {
            if (transformed) {
                report.notImported(source.place([...path, "assert", index]), "an assertion of a test whose options.transform runs code on the output first is not imported");
                return [];
            }
            const assertion = readAssertion(item, [...path, "assert", index], source, report);
            return assertion === null ? [] : [assertion];
        }),
        ...(threshold === undefined ? {} : {threshold: threshold as number}),
        ...(typeof value.description === "string" ? {description: value.description} : {}),
        place
    };
}

/** A CSV row as promptfoo reads it: variables, `__expected*` assertions, `__threshold`, `__description`. */
function csvTest(header: readonly string[], row: readonly string[], place: Place, report: ImportReport): ImportedTest {
    const test: ImportedTest = {vars: {}, asserts: [], place};
    header.forEach((name, index) => {
        const cell = row[index] ?? "";
        const at = {...place, field: name};
        if (name.startsWith("__expected")) {
            if (cell.trim() !== "") test.asserts.push(assertionFromCell(cell.trim(), at));
        } else if (name === "__threshold") {
            if (cell.trim() !== "") test.threshold = Number(cell);
            if (Number.isNaN(test.threshold)) throw new ImportError(at, `${JSON.stringify(cell)} is no number`);
        } else if (name === "__description") test.description = cell;
        else if (name.startsWith("__")) {
            if (cell.trim() !== "") report.notImported(at, `the ${name} column has no counterpart in an experiment`);
        } else test.vars[name] = cell;
    });
    return test;
}

/** Every test a `file://` reference holds, by its extension; rows are counted against the dataset's limit. */
async function* testFile(reference: string, from: Place, files: SourceFiles, report: ImportReport): AsyncGenerator<ImportedTest, void, undefined> {
    const file = files.resolve(from.file, reference);
    const extension = file.slice(file.lastIndexOf(".")).toLowerCase();
    if (/[*?[\]{}]/.test(reference) || [".js", ".cjs", ".mjs", ".ts", ".py"].includes(extension) || reference.startsWith("http")) {
        report.notImported(from, `tests from ${reference} are not imported: name a CSV, JSONL, JSON or YAML file`);
        return;
    }
    if (extension === ".jsonl") {
        for await (const {line, value} of jsonLines(files, file, from)) yield readTest(value, [], lineSource(file, line), report);
        return;
    }
    if (extension === ".csv" || extension === ".tsv") {
        let header: string[] | null = null;
        let line = 1;
        try {
            for await (const batch of new CsvSpreadsheet(() => files.chunks(file), {delimiter: extension === ".tsv" ? "\t" : "auto"}).readRows())
                for (const row of batch as string[][]) {
                    if (header === null) header = row.map((name) => name.trim());
                    else yield csvTest(header, row, {file, line: ++line, field: ""}, report);
                }
        } catch (error) {
            if (error instanceof ImportError) throw error;
            throw new ImportError(from, fileProblem(file, error));
        }
        return;
    }
    const source = parseYamlFile(file, await readReferenced(files, file, from));
    const items = Array.isArray(source.value) ? source.value : [source.value];
    for (const [index, item] of items.entries()) yield readTest(item, Array.isArray(source.value) ? [index] : [], source, report);
}

/** A one-line source (a JSONL line): every field of it is on that line. */
function lineSource(file: string, line: number): YamlFile {
    return {file, value: null, place: (path) => ({file, line, field: path.map((part) => typeof part === "number" ? `[${part}]` : `.${part}`).join("").replace(/^\./, "")})};
}

/** The config's tests, each merged with `defaultTest` and expanded over list-valued variables. */
export async function importTests(config: YamlFile, files: SourceFiles, report: ImportReport): Promise<ImportedTest[]> {
    const root = config.value as Record<string, unknown>;
    let defaults: ImportedTest = {vars: {}, asserts: [], place: config.place(["defaultTest"])};
    if (typeof root.defaultTest === "string" && root.defaultTest.startsWith("file://")) {
        for await (const test of testFile(root.defaultTest.slice(7), config.place(["defaultTest"]), files, report)) defaults = test;
    } else if (root.defaultTest !== undefined) defaults = readTest(root.defaultTest, ["defaultTest"], config, report);
    const tests: ImportedTest[] = [];
    const defaultOptions = isRecord(root.defaultTest) && isRecord(root.defaultTest.options) ? root.defaultTest.options : {};
    const add = (test: ImportedTest) => {
        if (defaultOptions.transform !== undefined && test.asserts.length > 0) {
            report.notImported(test.place, "assertions on outputs that defaultTest.options.transform changes with code first are not imported");
            test = {...test, asserts: []};
        }
        const merged: ImportedTest = {...test, vars: {...defaults.vars, ...test.vars}, asserts: [...defaults.asserts, ...test.asserts]};
        const threshold = test.threshold ?? defaults.threshold;
        if (threshold !== undefined) merged.threshold = threshold;
        for (const expanded of expandVars(merged)) {
            tests.push(expanded);
            if (tests.length > maxDatasetRows) throw new ImportError(test.place, `the tests make more than ${maxDatasetRows.toLocaleString("en-US")} rows, the most a dataset holds: split the suite`);
        }
    };
    const given = root.tests;
    const entries = given === undefined ? [] : Array.isArray(given) ? given.map((value, index) => ({value, path: ["tests", index]})) : [{value: given, path: ["tests"]}];
    for (const {value, path} of entries) {
        if (typeof value === "string" && value.startsWith("file://")) {
            for await (const test of testFile(value.slice(7), config.place(path), files, report)) add(test);
        } else if (typeof value === "string") report.notImported(config.place(path), `tests from ${value} are not imported: name a file:// CSV, JSONL, JSON or YAML file`);
        else add(readTest(value, path, config, report));
    }
    if (root.scenarios !== undefined) report.notImported(config.place(["scenarios"]), "scenarios are not imported: write their tests out");
    // A config without tests runs its prompts once, with the default test.
    if (tests.length === 0 && given === undefined) add({vars: {}, asserts: [], place: config.place([])});
    return tests;
}

/** One test per combination of a test's list-valued variables (promptfoo's expansion), in order. */
function expandVars(test: ImportedTest): ImportedTest[] {
    let expanded: ImportedTest[] = [{...test, vars: {}}];
    for (const [name, value] of Object.entries(test.vars)) {
        const values = Array.isArray(value) ? value : [value];
        expanded = expanded.flatMap((partial) => values.map((item) => ({...partial, vars: {...partial.vars, [name]: item}})));
    }
    return expanded;
}
