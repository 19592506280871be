import {ImportError, readReferenced, type ImportReport, type Place, type SourceFiles} from "../importProblems.ts";
import {isRecord, parseYamlFile, type YamlFile} from "../yamlDocument.ts";

// promptfoo's `prompts` as chat messages: a string, a `file://` text, JSON or YAML file (a text file may hold several
// prompts between `---` lines), an object with `raw` or `id` and a `label`, or the older map of file to label. A
// prompt whose text is a JSON array of {role, content} messages is a chat prompt, as promptfoo sends it. Only the
// plain-variable subset of Nunjucks is imported, `{{ name }}`, which the experiment's templates read the same way.

export type ChatMessage = {role: string, content: string};

/** `short`: the prompt's label or file name, else "prompt <n>" (a variant's name holds it). */
export type ImportedPrompt = {label: string, short: string, messages: ChatMessage[], place: Place};

/** A Nunjucks construct beyond `{{ name }}` in `text`, described, or null when there is none. */
export function nunjucksProblem(text: string): string | null {
    const tag = /\{%-?\s*(\w+)?[\s\S]*?%\}|\{#[\s\S]*?#\}/.exec(text);
    if (tag !== null) return `${JSON.stringify(tag[0].slice(0, 60))} is a Nunjucks ${tag[0].startsWith("{#") ? "comment" : `tag (${tag[1] ?? "?"})`}; only {{ variable }} is imported: rewrite it as plain text with variables`;
    for (const match of text.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
        const inside = match[1].trim();
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(inside))
            return `${JSON.stringify(match[0].slice(0, 60))} is a Nunjucks expression (a filter, a field, an index or a literal); only {{ variable }} is imported: give the value its own variable`;
    }
    return null;
}

/** `{{ name }}` placeholders of `text` filled from `vars` (an assertion's value rendered with the test's variables). */
export function renderPlain(text: string, vars: Record<string, unknown>): string {
    return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) => {
        const value = vars[name];
        if (value === undefined) return "";
        return typeof value === "string" ? value : JSON.stringify(value);
    });
}

/** The messages of a chat-format prompt (a JSON or YAML array of {role, content}), or null for a plain text prompt. */
function chatMessages(value: unknown): ChatMessage[] | null {
    if (!Array.isArray(value) || value.length === 0) return null;
    if (!value.every((item) => isRecord(item) && typeof item.role === "string" && typeof item.content === "string")) return null;
    return value.map((item: Record<string, unknown>) => ({role: item.role as string, content: item.content as string}));
}

function textMessages(text: string): ChatMessage[] {
    const trimmed = text.trim();
    if (trimmed.startsWith("[")) {
        try {
            const messages = chatMessages(JSON.parse(trimmed));
            if (messages !== null) return messages;
        } catch {
            // Not JSON: a text prompt that starts with a bracket.
        }
    }
    return [{role: "user", content: text}];
}

/**
 * The config's prompts, each as chat messages. A prompt that cannot be imported (a script, a glob, Nunjucks beyond
 * plain variables) is reported and left out.
 */
export async function importPrompts(config: YamlFile, files: SourceFiles, report: ImportReport): Promise<ImportedPrompt[]> {
    const root = config.value as Record<string, unknown>;
    if (root.prompts === undefined) throw new ImportError(config.place(["prompts"]), "the config has no prompts");
    const entries: Array<{value: unknown, label?: string, path: Array<string | number>}> = [];
    if (Array.isArray(root.prompts)) root.prompts.forEach((value, index) => entries.push({value, path: ["prompts", index]}));
    else if (typeof root.prompts === "string") entries.push({value: root.prompts, path: ["prompts"]});
    else if (isRecord(root.prompts))
        for (const [file, label] of Object.entries(root.prompts)) entries.push({value: file, label: typeof label === "string" ? label : undefined, path: ["prompts", file]});
    else throw new ImportError(config.place(["prompts"]), "must be a list of prompts, a prompt, or a map of files to labels");

    const prompts: ImportedPrompt[] = [];
    for (const entry of entries) {
        const place = config.place(entry.path);
        let value = entry.value;
        let label = entry.label;
        if (isRecord(value)) {
            for (const key of Object.keys(value)) if (!["raw", "id", "label"].includes(key)) report.notImported(config.place([...entry.path, key]), `the prompt's ${key} has no counterpart in an experiment's prompt`);
            label = typeof value.label === "string" ? value.label : undefined;
            value = value.raw ?? value.id;
        }
        if (typeof value !== "string") throw new ImportError(place, "a prompt must be text, a file:// reference or an object with raw or id");
        const loaded = value.startsWith("file://") ? await promptFile(value.slice("file://".length), place, files, report) : [{label: undefined, messages: textMessages(value)}];
        for (const [index, prompt] of loaded.entries()) {
            const problem = prompt.messages.map((message) => nunjucksProblem(message.content)).find((found) => found !== null);
            if (problem !== undefined && problem !== null) {
                report.notImported(place, `this prompt is not imported: ${problem}`);
                continue;
            }
            const named = label ?? prompt.label ?? (value.startsWith("file://") ? value.slice(7) : undefined);
            const base = named ?? value.replace(/\s+/g, " ").trim().slice(0, 60);
            const suffix = loaded.length > 1 ? ` #${index + 1}` : "";
            prompts.push({label: `${base}${suffix}`, short: named === undefined ? `prompt ${prompts.length + 1}` : `${named}${suffix}`, messages: prompt.messages, place});
        }
    }
    return prompts;
}

async function promptFile(reference: string, place: Place, files: SourceFiles, report: ImportReport): Promise<Array<{label: string | undefined, messages: ChatMessage[]}>> {
    if (/[*?[\]{}]/.test(reference)) {
        report.notImported(place, `a glob of prompt files (${reference}) is not imported: name each file`);
        return [];
    }
    const [file, functionName] = reference.split(":").length > 1 && !/^[A-Za-z]:[\\/]/.test(reference) ? [reference.slice(0, reference.lastIndexOf(":")), reference.slice(reference.lastIndexOf(":") + 1)] : [reference, undefined];
    const extension = file.slice(file.lastIndexOf(".")).toLowerCase();
    if ([".js", ".cjs", ".mjs", ".ts", ".py"].includes(extension)) {
        report.notImported(place, `a prompt made by a ${extension === ".py" ? "Python" : "JavaScript"} function (${reference}) is not imported: an experiment's prompt is text with {{variables}}`);
        return [];
    }
    if (functionName !== undefined) {
        report.notImported(place, `${reference}: a named function of a prompt file is not imported`);
        return [];
    }
    const path = files.resolve(place.file, file);
    const text = await readReferenced(files, path, place);
    if (extension === ".json" || extension === ".yaml" || extension === ".yml") {
        const parsed = parseYamlFile(path, text);
        const messages = chatMessages(parsed.value);
        if (messages !== null) return [{label: undefined, messages}];
        if (typeof parsed.value === "string") return [{label: undefined, messages: textMessages(parsed.value)}];
        throw new ImportError({file: path, line: 1, field: ""}, "a prompt file in JSON or YAML must hold a list of {role, content} messages");
    }
    if (extension === ".jsonl") {
        return text.split(/\r?\n/).map((line, index) => ({line, index})).filter(({line}) => line.trim() !== "").map(({line, index}) => {
            let value: unknown;
            try {
                value = JSON.parse(line);
            } catch (error) {
                throw new ImportError({file: path, line: index + 1, field: ""}, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
            }
            const messages = chatMessages(value);
            if (messages === null) throw new ImportError({file: path, line: index + 1, field: ""}, "each line of a JSONL prompt file must be a list of {role, content} messages");
            return {label: undefined, messages};
        });
    }
    // A text file: several prompts between lines of `---`.
    return text.split(/\r?\n---\r?\n/).filter((part) => part.trim() !== "").map((part) => ({label: undefined, messages: textMessages(part)}));
}
