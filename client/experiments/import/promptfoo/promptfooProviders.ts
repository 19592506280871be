import type {ConnectionRef} from "../../types.ts";
import {ImportError, type ImportReport, type Place} from "../importProblems.ts";
import {isRecord, type YamlFile} from "../yamlDocument.ts";

// promptfoo's `providers` (or `targets`) as the variants' connections: the OpenAI-compatible ones only,
// `openai:chat:<model>`, `openai:<model>` and `openai:responses:<model>`, each on the server its `apiBaseUrl` or
// `apiHost` names. An experiment sends to a server of this service's API (spec: `<base>/svc-1/v1/...`), so a base
// URL is taken without its `/v1` (and `/svc-1/v1`) ending; an OpenAI-compatible engine of another kind is reached
// through `svc-studio serve --upstream`. Without a base URL the variant runs on the app's local engine.

export type ImportedProvider = {
    label: string,
    endpoint: "chat" | "responses",
    model: string,
    connection: ConnectionRef,
    /** Request parameters from the provider's config, in the endpoint's wire names. */
    params: Record<string, unknown>,
    /** Prompt labels this provider runs (its `prompts` field), or null for all. */
    prompts: string[] | null,
    place: Place
};

/** Config fields sent as request parameters, per endpoint (promptfoo passes them through under the same names). */
const chatParams = ["temperature", "max_tokens", "max_completion_tokens", "top_p", "frequency_penalty", "presence_penalty", "seed", "stop", "response_format", "tools", "tool_choice", "logprobs", "top_logprobs", "n"];
const responsesParams = ["temperature", "max_output_tokens", "top_p", "seed", "tools", "tool_choice", "text", "instructions", "reasoning"];

/** The service root of an OpenAI-style base URL: `http://h:8080/v1` and `http://h:8080/svc-1/v1` are `http://h:8080`. */
export function serviceRoot(baseUrl: string): string {
    return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "").replace(/\/svc-1$/, "");
}

export function importProviders(config: YamlFile, report: ImportReport): ImportedProvider[] {
    const root = config.value as Record<string, unknown>;
    const key = root.providers !== undefined ? "providers" : "targets";
    const given = root[key];
    if (given === undefined) throw new ImportError(config.place(["providers"]), "the config has no providers");
    const entries: Array<{value: unknown, path: Array<string | number>}> = Array.isArray(given) ? given.map((value, index) => ({value, path: [key, index]})) : [{value: given, path: [key]}];
    const providers: ImportedProvider[] = [];
    for (const entry of entries) {
        let value = entry.value;
        let path = entry.path;
        // The map form: {"openai:gpt-4o": {config: ...}}.
        if (isRecord(value) && value.id === undefined && Object.keys(value).length === 1) {
            const [id, options] = Object.entries(value)[0];
            path = [...path, id];
            value = {id, ...(isRecord(options) ? options : {})};
        }
        const place = config.place(path);
        const provider = importProvider(typeof value === "string" ? {id: value} : value, path, config, report);
        if (provider !== null) providers.push({...provider, place});
    }
    const labels = new Set<string>();
    for (const provider of providers) {
        let label = provider.label;
        for (let count = 2; labels.has(label); count++) label = `${provider.label} (${count})`;
        labels.add(label);
        provider.label = label;
    }
    return providers;
}

function importProvider(value: unknown, path: Array<string | number>, config: YamlFile, report: ImportReport): Omit<ImportedProvider, "place"> | null {
    const place = config.place(path);
    if (!isRecord(value) || typeof value.id !== "string") throw new ImportError(place, "a provider must be an id such as openai:chat:gpt-4o-mini, or an object with an id");
    const id = value.id;
    const parsed = /^openai:(?:(chat|responses):)?(.+)$/.exec(id);
    const other = /^openai:(completion|embedding|embeddings|assistant|image|realtime|moderation|transcription|agents|chatkit|codex-sdk|video):/.exec(id);
    if (parsed === null || other !== null || id.startsWith("file://")) {
        report.notImported(place, `${id}: only OpenAI-compatible chat and Responses providers (openai:chat:<model>, openai:responses:<model>) become variants`);
        return null;
    }
    const endpoint = parsed[1] === "responses" ? "responses" : "chat";
    const model = parsed[2];
    for (const field of Object.keys(value)) if (!["id", "label", "config", "prompts"].includes(field)) report.notImported(config.place([...path, field]), `the provider's ${field} has no counterpart in a variant`);
    const options = isRecord(value.config) ? value.config : {};
    const params: Record<string, unknown> = {};
    let baseUrl: string | undefined;
    let apiKeyEnv: string | undefined;
    for (const [field, option] of Object.entries(options)) {
        const at = config.place([...path, "config", field]);
        if (field === "apiBaseUrl" && typeof option === "string") baseUrl = option;
        else if (field === "apiHost" && typeof option === "string") baseUrl = `https://${option}/v1`;
        // SVC_API_KEY is the key eval sends anyway when it is set (and what an exported config names by default).
        else if (field === "apiKeyEnvar" && typeof option === "string") apiKeyEnv = option === "SVC_API_KEY" ? undefined : option;
        else if (field === "apiKey") report.notImported(at, "a key is never written into an experiment file: set apiKeyEnvar (the environment variable that holds it) instead");
        else if ((endpoint === "chat" ? chatParams : responsesParams).includes(field)) params[field] = option;
        else report.notImported(at, `${field} is no request parameter of ${endpoint === "chat" ? "chat completions" : "Responses"} that a variant sends`);
    }
    if (baseUrl !== undefined && !/^https?:\/\//.test(baseUrl)) throw new ImportError(config.place([...path, "config"]), `the base URL ${JSON.stringify(baseUrl)} is no http(s) URL`);
    const connection: ConnectionRef = baseUrl === undefined ? {profile: "local"} : {baseUrl: serviceRoot(baseUrl), ...(apiKeyEnv === undefined ? {} : {apiKeyEnv})};
    if (params.tools !== undefined)
        report.note(`${id} offers tools: promptfoo's output of a tool call is the calls' JSON, while an experiment's text checks read the reply's text, which a tool call lacks; the tool_calls check (is-valid-openai-tools-call) reads the calls`);
    if (baseUrl === undefined)
        report.note(`${id} names no apiBaseUrl: its variant runs on the app's local engine (svc-studio eval --local <url> sends it to a running svc-studio serve)`);
    const prompts = Array.isArray(value.prompts) ? value.prompts.filter((item): item is string => typeof item === "string") : null;
    const label = typeof value.label === "string" ? value.label : id;
    return {label, endpoint, model, connection, params, prompts};
}
