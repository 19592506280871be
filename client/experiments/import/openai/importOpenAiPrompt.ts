import type {Dataset, ExperimentSpec, PromptVersion, Variant} from "../../types.ts";
import {importedExperiment} from "../importedExperiment.ts";
import {ImportError, ImportReport, readReferenced, type SourceFiles} from "../importProblems.ts";
import {parseJsonFile} from "../jsonDocument.ts";
import {isRecord, type FieldPath} from "../yamlDocument.ts";
import {promptVersionBody} from "./promptRequest.ts";

// OpenAI prompt objects (the reusable prompts a Responses call names with `prompt: {id: "pmpt_...", version}`) as a
// saved Responses prompt with one version per OpenAI version. A file holds one version, a list of versions, or
// OpenAI's list envelope `{"object": "list", "data": [...]}`, all of one prompt. A version names itself with `id` and
// `version` at its top level, or in a `prompt` field shaped as the Responses `prompt` parameter; its content is the
// Responses request fields it fills in (promptRequest.ts). Versions are numbered 1, 2, ... in OpenAI's order, each
// with a note naming the OpenAI prompt, version and model.

export type ImportedPromptVersion = PromptVersion & {openAiVersion: string, model?: string};

export type ImportedPrompt = {
    promptId: string,
    /** The saved item's id: a name the app's database takes (letters, digits, `.`, `_`, `-`). */
    itemId: string,
    itemName: string,
    versions: ImportedPromptVersion[],
    /** Every `{{variable}}` any version uses, in order of first use: the dataset's columns. */
    variables: string[],
    report: ImportReport
};

/** Reads a prompt object file; bad input is an ImportError naming the file, line and field (with the report so far). */
export async function importOpenAiPrompt(file: string, files: SourceFiles, options: {createdAt?: number} = {}): Promise<ImportedPrompt> {
    const report = new ImportReport();
    try {
        const source = parseJsonFile(file, await readReferenced(files, file, {file, field: ""}));
        const root = source.value;
        const list: Array<{value: unknown, at: FieldPath}> = Array.isArray(root) ? root.map((value, index) => ({value, at: [index]}))
            : isRecord(root) && root.object === "list" && Array.isArray(root.data) ? root.data.map((value, index) => ({value, at: ["data", index]}))
                : [{value: root, at: []}];
        if (list.length === 0) throw new ImportError(source.place([]), "the file holds no prompt version");
        const read = list.map(({value, at}) => {
            if (!isRecord(value)) throw new ImportError(source.place(at), "a prompt version is a JSON object");
            const reference = isRecord(value.prompt) ? value.prompt : value;
            const referenceAt = reference === value ? at : [...at, "prompt"];
            if (typeof reference.id !== "string" || reference.id === "")
                throw new ImportError(source.place([...referenceAt, "id"]), "each version names its prompt: \"id\": \"pmpt_...\" (or prompt.id, as a Responses request does)");
            const version = typeof reference.version === "string" || typeof reference.version === "number" ? String(reference.version) : null;
            if (version === null && list.length > 1) throw new ImportError(source.place([...referenceAt, "version"]), "each of several versions names its version (\"version\": \"3\")");
            if (isRecord(reference.variables) && Object.keys(reference.variables).length > 0)
                report.notImported(source.place([...referenceAt, "variables"]), "the variables' values are not imported: in an experiment each dataset row's cells fill them");
            return {value, at, id: reference.id, version: version ?? "default", ...promptVersionBody(source, at, value, report)};
        });
        const promptId = read[0].id;
        for (const entry of read) {
            if (entry.id !== promptId) throw new ImportError(source.place([...entry.at, "id"]), `a file holds the versions of one prompt: this is ${entry.id}, the first is ${promptId}`);
            const twin = read.find((other) => other !== entry && other.version === entry.version);
            if (twin !== undefined) throw new ImportError(source.place([...entry.at, "version"]), `version ${entry.version} is in the file twice`);
        }
        if (read.every((entry) => /^\d+$/.test(entry.version))) read.sort((a, b) => Number(a.version) - Number(b.version));
        const named = read.map((entry) => entry.value.name).filter((name): name is string => typeof name === "string" && name.trim() !== "");
        const itemName = named.at(-1)?.trim() ?? promptId;
        const itemId = `openai-${promptId}`.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128).replace(/\.+$/, "");
        const versions = read.map((entry, index): ImportedPromptVersion => ({
            itemId, itemName, version: index + 1, openAiVersion: entry.version,
            note: versionNote(promptId, entry.version, entry.model, entry.value),
            createdAt: typeof entry.value.created_at === "number" ? entry.value.created_at * 1000 : options.createdAt ?? 0,
            prompt: {kind: "chat", endpoint: "responses", body: entry.body},
            ...(entry.model === undefined ? {} : {model: entry.model})
        }));
        const variables = [...new Set(read.flatMap((entry) => entry.variables))];
        return {promptId, itemId, itemName, versions, variables, report};
    } catch (error) {
        if (error instanceof ImportError) error.report = report;
        throw error;
    }
}

/** "OpenAI prompt pmpt_… version 3 · gpt-4.1 · the default version · Shorter replies". */
function versionNote(promptId: string, version: string, model: string | undefined, value: Record<string, unknown>): string {
    return [`OpenAI prompt ${promptId} version ${version}`, model, value.is_default === true ? "the default version" : undefined,
        typeof value.description === "string" && value.description.trim() !== "" ? value.description.trim() : undefined]
        .filter((part) => part !== undefined).join(" · ");
}

/** The saved versions alone, as the app's database keeps them (no OpenAI version or model fields). */
export function savedVersions(imported: ImportedPrompt): PromptVersion[] {
    return imported.versions.map(({openAiVersion: _version, model: _model, ...version}) => version);
}

/**
 * An experiment comparing every version on `dataset` at once: one variant per version, named `version <n>` after
 * OpenAI's number, on the local engine with the version's model (as imported suites' variants are).
 */
export function promptVersionsExperiment(imported: ImportedPrompt, parts: {file: string, id: string, dataset: Dataset, createdAt?: number}): ExperimentSpec {
    const missing = imported.variables.filter((name) => !parts.dataset.columns.includes(name));
    if (missing.length > 0)
        throw new ImportError({file: parts.file, field: "--dataset"}, `the dataset has no column ${missing.map((name) => JSON.stringify(name)).join(", ")}; the versions use ${imported.variables.map((name) => `{{${name}}}`).join(", ")} (columns: ${parts.dataset.columns.map((name) => JSON.stringify(name)).join(", ")})`);
    const saved = savedVersions(imported);
    const variants = imported.versions.map((version, index): Variant => ({
        name: `version ${version.openAiVersion}`, version: saved[index], connection: {profile: "local"}, ...(version.model === undefined ? {} : {model: version.model})
    }));
    imported.report.note("each version's variant runs on the app's local engine (svc-studio eval --local <url>, or svc-studio import --base-url <url>)");
    return importedExperiment({file: parts.file, id: parts.id, name: imported.itemName, dataset: parts.dataset, variants, checks: [], createdAt: parts.createdAt}, imported.report);
}
