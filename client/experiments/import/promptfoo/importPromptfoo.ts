import type {CellValue} from "../../../scoring/types.ts";
import {datasetFromTable} from "../../dataset.ts";
import {replyVariable} from "../../checks.ts";
import type {ExperimentSpec, Variant} from "../../types.ts";
import {cellValue, importedExperiment, uniqueNames} from "../importedExperiment.ts";
import {ImportError, ImportReport, type SourceFiles} from "../importProblems.ts";
import {isRecord, parseYamlFile} from "../yamlDocument.ts";
import {importAssertions} from "./promptfooAsserts.ts";
import {importPrompts, type ImportedPrompt} from "./promptfooPrompts.ts";
import {importProviders, type ImportedProvider} from "./promptfooProviders.ts";
import {importTests} from "./promptfooTests.ts";

// A promptfoo config (`promptfooconfig.yaml`) as an experiment: its prompts × its providers are the variants, its
// tests the dataset's rows (variables as the columns the model sees, assertion values as label columns), its
// assertions the checks. Everything is read and checked before anything is written; what could not be imported is
// in the report, each with its file, line and field.

/** The config's top-level fields this import reads; every other one is reported. */
const readFields = ["description", "prompts", "providers", "targets", "tests", "defaultTest", "scenarios", "assertionTemplates"];

export type PromptfooImport = {spec: ExperimentSpec, report: ImportReport};

/** Imports the config at `configFile` (read through `files`); `name` is the experiment's id and default name. */
export async function importPromptfooConfig(configFile: string, files: SourceFiles, options: {id: string, createdAt?: number}): Promise<PromptfooImport> {
    const report = new ImportReport();
    try {
        return await importConfig(configFile, files, options, report);
    } catch (error) {
        if (error instanceof ImportError) error.report = report;
        throw error;
    }
}

async function importConfig(configFile: string, files: SourceFiles, options: {id: string, createdAt?: number}, report: ImportReport): Promise<PromptfooImport> {
    let text: string;
    try {
        text = await files.readText(configFile);
    } catch (error) {
        throw new ImportError({file: configFile, field: ""}, (error as {code?: string}).code === "ENOENT" ? `no such file: ${configFile}` : String(error));
    }
    const config = parseYamlFile(configFile, text);
    if (!isRecord(config.value)) throw new ImportError({file: configFile, line: 1, field: ""}, "a promptfoo config is a YAML map with prompts, providers and tests");
    for (const field of Object.keys(config.value))
        if (!readFields.includes(field)) report.notImported(config.place([field]), `${field} has no counterpart in an experiment`);
    const prompts = await importPrompts(config, files, report);
    const providers = importProviders(config, report);
    const tests = await importTests(config, files, report);

    const varNames: string[] = [];
    for (const test of tests) for (const name of Object.keys(test.vars)) if (!varNames.includes(name)) varNames.push(name);
    // A grader's template names the model's reply {{reply}}: a variable of that name gets a column of another name.
    const renamed = new Map<string, string>();
    if (varNames.includes(replyVariable)) {
        let name = `${replyVariable}_var`;
        while (varNames.includes(name)) name = `${name}_`;
        renamed.set(replyVariable, name);
        varNames[varNames.indexOf(replyVariable)] = name;
        for (const prompt of prompts) prompt.messages = prompt.messages.map((message) => ({...message, content: message.content.replace(/\{\{\s*reply\s*\}\}/g, `{{${name}}}`)}));
        report.note(`the variable ${replyVariable} is the column ${name}: in a grader's template {{${replyVariable}}} is the model's reply`);
    }
    const varOf = (column: string) => [...renamed].find(([, to]) => to === column)?.[0] ?? column;
    const descriptions = tests.some((test) => test.description !== undefined);
    const taken = [...varNames, ...(descriptions ? ["description"] : [])];
    const assertions = importAssertions(tests, taken, report);
    // Only now, so the report is whole: a config with nothing to run.
    if (prompts.length === 0) throw new ImportError(config.place(["prompts"]), "no prompt could be imported (see the report above)");
    if (providers.length === 0)
        throw new ImportError(config.place([(config.value as Record<string, unknown>).providers === undefined && (config.value as Record<string, unknown>).targets !== undefined ? "targets" : "providers"]), "no provider could be imported: an experiment's variants need an OpenAI-compatible provider (see the report above)");
    // A variable a prompt names that no test gives is empty in promptfoo: a column of empty cells here.
    for (const prompt of prompts)
        for (const message of prompt.messages)
            for (const match of message.content.matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g))
                if (!varNames.includes(match[1]) && !assertions.columns.some((column) => column.name === match[1])) {
                    varNames.push(match[1]);
                    taken.push(match[1]);
                    report.note(`no test gives the variable ${match[1]} (${prompt.label}): its column is empty`);
                }
    const columns = [...varNames, ...(descriptions ? ["description"] : []), ...assertions.columns.map((column) => column.name)];
    const rows = tests.map((test, index): CellValue[] => [
        ...varNames.map((name) => cellValue(test.vars[varOf(name)])),
        ...(descriptions ? [test.description ?? null] : []),
        ...assertions.columns.map((column) => column.cells[index])
    ]);
    const labelColumns = columns.slice(varNames.length);
    const dataset = {...datasetFromTable({name: `${options.id} tests`, columns, rows, labelColumns, inputColumns: varNames}), id: `${options.id}-tests`};

    const description = typeof config.value.description === "string" ? config.value.description : options.id;
    const variants = variantsOf(prompts, providers, configFile, options.createdAt ?? 0, report);
    return {spec: importedExperiment({file: configFile, id: options.id, name: description, dataset, variants, checks: assertions.checks, createdAt: options.createdAt}, report), report};
}

/** Every prompt on every provider (or the prompts a provider names), each a variant with a unique short name. */
function variantsOf(prompts: readonly ImportedPrompt[], providers: readonly ImportedProvider[], configFile: string, createdAt: number, report: ImportReport): Variant[] {
    const variants: Variant[] = [];
    for (const provider of providers) {
        const chosen = provider.prompts === null ? prompts : prompts.filter((prompt) => provider.prompts!.includes(prompt.label));
        if (chosen.length === 0) report.notImported(provider.place, `${provider.label} names prompts (${provider.prompts!.join(", ")}) that were not imported`);
        for (const prompt of chosen) {
            const name = providers.length === 1 ? prompt.label : prompts.length === 1 || chosen.length === 1 ? provider.label : `${provider.label} · ${prompt.short}`;
            const body = provider.endpoint === "chat" ? {messages: prompt.messages} : {input: prompt.messages};
            variants.push({
                name: name.length > 60 ? `${name.slice(0, 57)}...` : name,
                version: {itemId: `promptfoo:${prompt.label}`, itemName: prompt.label, version: 1, note: `imported from promptfoo (${configFile.split(/[\\/]/).pop()})`, createdAt, prompt: {kind: "chat", endpoint: provider.endpoint, body}},
                connection: provider.connection,
                // `svc-1` is this service's own chat model id (a config exported from an experiment), not a model to load.
                ...(provider.model === "svc-1" ? {} : {model: provider.model}),
                ...(Object.keys(provider.params).length === 0 ? {} : {params: provider.params})
            });
        }
    }
    uniqueNames(variants);
    if (variants.length === 0) throw new ImportError({file: configFile, field: "providers"}, "no provider runs an imported prompt");
    return variants;
}
