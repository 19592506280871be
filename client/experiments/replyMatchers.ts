import {Ajv, type ValidateFunction} from "ajv";
import {linearRegExp} from "../../protocol/linearRegExp.ts";
import type {CellValue} from "../scoring/types.ts";
import {cellText} from "../scoring/requests.ts";

// What some checks look for in a reply beyond plain text: a list of expected strings in one cell, JSON inside
// prose, and tool calls against the tools the request offered.

/**
 * The strings a `contains_any` / `contains_all` cell holds: a JSON array of strings (numbers are read as their
 * text), else the cell's text as one string; blank items are dropped.
 */
export function expectedList(cell: CellValue | undefined): string[] {
    const text = cellText(cell).trim();
    if (text.startsWith("[")) {
        try {
            const parsed: unknown = JSON.parse(text);
            if (Array.isArray(parsed)) return parsed.map((item) => typeof item === "string" ? item : JSON.stringify(item)).filter((item) => item.trim() !== "");
        } catch {
            // Not JSON: the cell is one expected string.
        }
    }
    return text === "" ? [] : [text];
}

/**
 * Whether the reply holds a JSON object or array somewhere: the first `{` or `[` from which a balanced stretch of
 * text parses as JSON (as promptfoo's contains-json reads prose and code fences around it).
 */
export function containsJson(reply: string): boolean {
    for (let start = 0; start < reply.length; start++) {
        const open = reply[start];
        if (open !== "{" && open !== "[") continue;
        const end = balancedEnd(reply, start);
        if (end < 0) continue;
        try {
            JSON.parse(reply.slice(start, end + 1));
            return true;
        } catch {
            // Try the next opening bracket.
        }
    }
    return false;
}

/** The index of the bracket closing the one at `start` (strings skipped), or -1. */
function balancedEnd(text: string, start: number): number {
    let depth = 0;
    let inString = false;
    for (let index = start; index < text.length; index++) {
        const char = text[index];
        if (inString) {
            if (char === "\\") index++;
            else if (char === "\"") inString = false;
        } else if (char === "\"") inString = true;
        else if (char === "{" || char === "[") depth++;
        else if (char === "}" || char === "]") {
            depth--;
            if (depth === 0) return index;
        }
    }
    return -1;
}

type ToolCall = {name: string, arguments: string};

/** The tool calls of a chat completion (first choice) or a Responses object (its function_call items). */
export function toolCallsOf(response: Record<string, unknown>): ToolCall[] {
    const choices = response.choices as Array<{message?: {tool_calls?: Array<{function?: {name?: unknown, arguments?: unknown}}>}}> | undefined;
    if (Array.isArray(choices))
        return (choices[0]?.message?.tool_calls ?? []).map((call) => ({name: String(call.function?.name ?? ""), arguments: String(call.function?.arguments ?? "")}));
    const output = response.output as Array<{type?: string, name?: unknown, arguments?: unknown}> | undefined;
    return (output ?? []).filter((item) => item.type === "function_call").map((item) => ({name: String(item.name ?? ""), arguments: String(item.arguments ?? "")}));
}

/** The function tools a chat or Responses request offered, by name, with their parameters schema. */
function offeredTools(request: Record<string, unknown>): Map<string, Record<string, unknown> | undefined> {
    const tools = new Map<string, Record<string, unknown> | undefined>();
    for (const tool of (request.tools as Array<Record<string, unknown>> | undefined) ?? []) {
        const fn = (tool.function ?? tool) as {name?: unknown, parameters?: unknown};
        if (typeof fn.name === "string") tools.set(fn.name, fn.parameters !== null && typeof fn.parameters === "object" ? fn.parameters as Record<string, unknown> : undefined);
    }
    return tools;
}

/**
 * Why the reply's tool calls are not valid against the request's tools, or null when they are: the reply must make
 * at least one call, each naming an offered function, with arguments that are a JSON object its parameters schema
 * accepts (ajv, patterns in linear time).
 */
export function toolCallProblem(request: Record<string, unknown>, response: Record<string, unknown>): string | null {
    const calls = toolCallsOf(response);
    if (calls.length === 0) return "the reply makes no tool call";
    const tools = offeredTools(request);
    for (const call of calls) {
        if (!tools.has(call.name)) return `the reply calls ${JSON.stringify(call.name)}, which the request did not offer (offered: ${[...tools.keys()].map((name) => JSON.stringify(name)).join(", ") || "none"})`;
        let args: unknown;
        try {
            args = JSON.parse(call.arguments);
        } catch {
            return `the arguments of ${call.name} are not JSON`;
        }
        const schema = tools.get(call.name);
        if (schema === undefined) continue;
        const validate = compiledSchema(schema);
        if (!validate(args)) return `the arguments of ${call.name} do not fit its parameters: ${new Ajv().errorsText(validate.errors, {dataVar: "arguments"})}`;
    }
    return null;
}

/** Compiled parameter schemas by their JSON (each row's request is a new object with the same tools). */
const schemas = new Map<string, ValidateFunction>();

function compiledSchema(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = schemas.get(key);
    if (validate === undefined) {
        validate = new Ajv({strict: false, allErrors: true, validateFormats: false, code: {regExp: linearRegExp}}).compile(schema);
        if (schemas.size >= 64) schemas.clear();
        schemas.set(key, validate);
    }
    return validate;
}
