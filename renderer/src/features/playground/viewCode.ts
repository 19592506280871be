// View code: the current request as curl, TypeScript or Python (openai client), with the key read from the environment;
// for the playgrounds and the Decision studio alike.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {engineAddress} from "../../gateway/engineAddress.ts";
import type {GatewayState} from "../../gateway/types.ts";

export type Endpoint = "chat" | "responses" | "completions" | "decisions" | "systemone";

/** The endpoints of model `svc-1-decision`, which the openai clients have no method for. */
const decisionEndpoints: ReadonlySet<Endpoint> = new Set(["decisions", "systemone"]);

/** A request to show as code: the endpoint, the API base URL (`apiBaseUrl`) and the body. */
export type CodeRequest = {endpoint: Endpoint, baseUrl: string, body: JsonBody};

export type CodeOptions = {
    /** Shorten long `data:` URLs (images) so the code stays readable; copying uses the full request. */
    elideDataUrls?: boolean
};

/** The environment variable every snippet reads the key from; no snippet ever holds a key. */
export const apiKeyEnvVar = "SVC_API_KEY";

/** Path of each endpoint under its base URL (spec §4): `/svc-1/v1`, or `/svc-1-decision/v1` for the decision endpoints. */
export const endpointPath: Record<Endpoint, string> = {
    chat: "/chat/completions",
    responses: "/responses",
    completions: "/completions",
    decisions: "/decisions",
    systemone: "/systemone"
};

/** Where a script reaches the local engine when the gateway does not say (no state yet, or a port picked at each start): the CLI's default port. */
export const defaultLocalEngineUrl = "http://127.0.0.1:8080";

/**
 * The base URL a script outside the app would use for `endpoint` on the active connection: the local engine's own URL
 * (not the gateway's, whose token scripts do not have) or the remote profile's, then `/svc-1/v1`, or `/svc-1-decision/v1`
 * for the decision endpoints (spec §4: a client library pointed at them includes `/v1` in its base address).
 */
export function apiBaseUrl(state: GatewayState | undefined, endpoint: Endpoint = "chat"): string {
    const active = state?.connections.find((connection) => connection.id === state.activeConnectionId);
    const root = active?.kind === "remote" && active.baseUrl ? active.baseUrl : localEngineUrl(state);
    return `${root.replace(/\/+$/, "")}/${decisionEndpoints.has(endpoint) ? modelIds.decision : modelIds.chat}/v1`;
}

/** The engine's URL while it runs, else where it listens once started: its port is kept across restarts. */
function localEngineUrl(state: GatewayState | undefined): string {
    return (state?.engine != null ? engineAddress(state.engine) : undefined) ?? defaultLocalEngineUrl;
}

const keepChars = 24;
const longerThan = 96;

/**
 * A copy of `value` with every long `data:` URL cut to its head and a note of how much was left out,
 * e.g. `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA…[12.3 kB elided]`.
 */
export function elideDataUrls<T>(value: T): T {
    if (typeof value === "string") return (value.startsWith("data:") && value.length > longerThan ? shorten(value) : value) as T;
    if (Array.isArray(value)) return value.map(elideDataUrls) as T;
    if (value !== null && typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, elideDataUrls(item)])) as T;
    return value;
}

function shorten(url: string): string {
    const comma = url.indexOf(",");
    const head = url.slice(0, comma + 1 + keepChars);
    const left = url.length - head.length;
    return `${head}…[${(left / 1000).toFixed(1)} kB elided]`;
}

const maxInlineWidth = 72;

export type LiteralStyle = "js" | "python";

/**
 * A JSON value as source code: JavaScript/TypeScript (identifier keys unquoted) or Python (True, False,
 * None). Small objects and arrays stay on one line; bigger ones get one entry per line, indented by
 * `indent` spaces per level, starting at `level`.
 */
export function formatLiteral(value: unknown, style: LiteralStyle, indent = 4, level = 0): string {
    if (value === null || value === undefined) return style === "python" ? "None" : "null";
    if (typeof value === "boolean") return style === "python" ? (value ? "True" : "False") : String(value);
    if (typeof value === "number") return Number.isFinite(value) ? String(value) : (style === "python" ? "None" : "null");
    if (typeof value === "string") return JSON.stringify(value);
    const entries = Array.isArray(value)
        ? value.map((item) => formatLiteral(item, style, indent, level + 1))
        : Object.entries(value as Record<string, unknown>).map(([key, item]) =>
            `${formatKey(key, style)}: ${formatLiteral(item, style, indent, level + 1)}`);
    const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
    if (entries.length === 0) return open + close;
    const inline = style === "js" && !Array.isArray(value) ? `{${entries.join(", ")}}` : `${open}${entries.join(", ")}${close}`;
    if (!inline.includes("\n") && inline.length + level * indent <= maxInlineWidth) return inline;
    const pad = " ".repeat((level + 1) * indent);
    return `${open}\n${entries.map((entry) => pad + entry).join(",\n")}\n${" ".repeat(level * indent)}${close}`;
}

function formatKey(key: string, style: LiteralStyle): string {
    return style === "js" && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

// Fields the official openai clients know for each endpoint; anything else (include_reasoning,
// chat_template_kwargs, thinking_token_budget, ...) goes through their pass-through for extra fields.
const known: Record<Endpoint, ReadonlySet<string>> = {
    chat: new Set(["model", "messages", "max_tokens", "max_completion_tokens", "temperature", "top_p", "seed", "stop", "n", "tools",
        "tool_choice", "response_format", "reasoning_effort", "presence_penalty", "frequency_penalty", "stream", "stream_options", "user"]),
    responses: new Set(["model", "input", "instructions", "max_output_tokens", "temperature", "top_p", "stream"]),
    completions: new Set(["model", "prompt", "max_tokens", "temperature", "top_p", "seed", "stop", "n", "presence_penalty",
        "frequency_penalty", "echo", "stream", "stream_options", "user"]),
    decisions: new Set(),
    systemone: new Set()
};

/** The body split into fields the openai client types know and extras, each in the body's order. */
export function splitOpenAiFields(endpoint: Endpoint, body: JsonBody): {standard: JsonBody, extra: JsonBody} {
    const standard: JsonBody = {};
    const extra: JsonBody = {};
    for (const [key, value] of Object.entries(body)) (known[endpoint].has(key) ? standard : extra)[key] = value;
    return {standard, extra};
}

/** The request as a curl command; the key is read from `$SVC_API_KEY` by the shell. */
export function toCurl(request: CodeRequest, options: CodeOptions = {}): string {
    const body = options.elideDataUrls ? elideDataUrls(request.body) : request.body;
    const streaming = body.stream === true;
    return [
        `curl ${streaming ? "-N " : ""}${request.baseUrl}${endpointPath[request.endpoint]} \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -H "Authorization: Bearer $${apiKeyEnvVar}" \\`,
        `  -d ${shellQuote(JSON.stringify(body, null, 2))}`
    ].join("\n") + "\n";
}

/** Single-quotes a string for POSIX shells; an embedded `'` becomes `'\''`. */
export function shellQuote(text: string): string {
    return `'${text.replaceAll("'", "'\\''")}'`;
}

const typeScriptCreateCall: Record<Endpoint, string> = {
    chat: "client.chat.completions.create",
    responses: "client.responses.create",
    completions: "client.completions.create",
    decisions: "client.post",
    systemone: "client.post"
};

/** The request as a TypeScript program using the official `openai` client (ESM, top-level await). */
export function toTypeScript(request: CodeRequest, options: CodeOptions = {}): string {
    const body = options.elideDataUrls ? elideDataUrls(request.body) : request.body;
    if (decisionEndpoints.has(request.endpoint)) return [
        ...typeScriptClient(request),
        `// The openai client has no method for the decision endpoints: its generic post sends the body as it is.`,
        `const result = await ${typeScriptCreateCall[request.endpoint]}(${JSON.stringify(endpointPath[request.endpoint])}, {`,
        `    body: ${formatLiteral(body, "js", 4, 1)}`,
        `});`,
        `console.log(JSON.stringify(result, null, 2));`,
        ``
    ].join("\n");
    const {standard, extra} = splitOpenAiFields(request.endpoint, body);
    const fields = Object.entries(standard).map(([key, value]) => `    ${key}: ${formatLiteral(value, "js", 4, 1)}`);
    if (Object.keys(extra).length > 0) {
        // Spread in, so the typed fields keep their checks while the svc extras pass through as sent.
        fields.push(`    // svc fields outside the openai types, sent as they are\n    ...${formatLiteral(extra, "js", 4, 1)}`);
    }
    const streaming = body.stream === true;
    const result = streaming ? "stream" : request.endpoint === "responses" ? "response" : "completion";
    return [
        ...typeScriptClient(request),
        `const ${result} = await ${typeScriptCreateCall[request.endpoint]}({`,
        fields.join(",\n"),
        `});`,
        ...printTypeScriptResult(request.endpoint, streaming),
        ``
    ].join("\n");
}

function typeScriptClient(request: CodeRequest): string[] {
    return [
        `import OpenAI from "openai";`,
        ``,
        `const client = new OpenAI({`,
        `    baseURL: ${JSON.stringify(request.baseUrl)},`,
        `    apiKey: process.env.${apiKeyEnvVar}`,
        `});`,
        ``
    ];
}

function printTypeScriptResult(endpoint: Endpoint, streaming: boolean): string[] {
    if (endpoint === "responses") return streaming
        ? [`for await (const event of stream) {`, `    if (event.type === "response.output_text.delta") process.stdout.write(event.delta);`, `}`]
        : [`console.log(response.output_text);`];
    const field = endpoint === "chat" ? "delta?.content" : "text";
    if (streaming) return [
        `for await (const chunk of stream) {`,
        `    // With include_usage the last chunk has no choices, only usage.`,
        `    process.stdout.write(chunk.choices[0]?.${field} ?? "");`,
        `}`
    ];
    return [endpoint === "chat" ? `console.log(completion.choices[0].message.content);` : `console.log(completion.choices[0].text);`];
}

const pythonCreateCall: Record<Endpoint, string> = {
    chat: "client.chat.completions.create",
    responses: "client.responses.create",
    completions: "client.completions.create",
    decisions: "client.post",
    systemone: "client.post"
};

/** The request as a Python script using the official `openai` client; svc extras go in `extra_body`. */
export function toPython(request: CodeRequest, options: CodeOptions = {}): string {
    const body = options.elideDataUrls ? elideDataUrls(request.body) : request.body;
    if (decisionEndpoints.has(request.endpoint)) return [
        `import json`,
        `import os`,
        ``,
        `import httpx`,
        `from openai import OpenAI`,
        ``,
        ...pythonClient(request),
        `# The openai client has no method for the decision endpoints: its generic post sends the body as it is.`,
        `response = ${pythonCreateCall[request.endpoint]}(`,
        `    ${JSON.stringify(endpointPath[request.endpoint])},`,
        `    cast_to=httpx.Response,`,
        `    body=${formatLiteral(body, "python", 4, 1)},`,
        `)`,
        `print(json.dumps(response.json(), indent=2))`,
        ``
    ].join("\n");
    const {standard, extra} = splitOpenAiFields(request.endpoint, body);
    const args = Object.entries(standard).map(([key, value]) => `    ${key}=${formatLiteral(value, "python", 4, 1)},`);
    if (Object.keys(extra).length > 0) args.push(`    extra_body=${formatLiteral(extra, "python", 4, 1)},`);
    const streaming = body.stream === true;
    const result = streaming ? "stream" : request.endpoint === "responses" ? "response" : "completion";
    return [
        `import os`,
        ``,
        `from openai import OpenAI`,
        ``,
        ...pythonClient(request),
        `${result} = ${pythonCreateCall[request.endpoint]}(`,
        ...args,
        `)`,
        ...printPythonResult(request.endpoint, streaming),
        ``
    ].join("\n");
}

function pythonClient(request: CodeRequest): string[] {
    return [
        `client = OpenAI(`,
        `    base_url=${JSON.stringify(request.baseUrl)},`,
        `    api_key=os.environ[${JSON.stringify(apiKeyEnvVar)}],`,
        `)`,
        ``
    ];
}

function printPythonResult(endpoint: Endpoint, streaming: boolean): string[] {
    if (endpoint === "responses") return streaming
        ? [`for event in stream:`, `    if event.type == "response.output_text.delta":`, `        print(event.delta, end="", flush=True)`, `print()`]
        : [`print(response.output_text)`];
    const field = endpoint === "chat" ? "delta.content" : "text";
    if (streaming) return [
        `for chunk in stream:`,
        `    # With include_usage the last chunk has no choices, only usage.`,
        `    if chunk.choices:`,
        `        print(chunk.choices[0].${field} or "", end="", flush=True)`,
        `print()`
    ];
    return [endpoint === "chat" ? `print(completion.choices[0].message.content)` : `print(completion.choices[0].text)`];
}
