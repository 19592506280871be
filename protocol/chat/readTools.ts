import {fail, optional, readArray, readEnum, readObject, readString, required} from "../validation/read.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import type {ChatTool, ChatToolChoice} from "./types.ts";

const functionNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

export function readFunctionName(value: unknown, path: FieldPath): string {
    const name = readString(value, path);
    if (!functionNamePattern.test(name)) fail(path, "must be 1-64 characters of a-z, A-Z, 0-9, underscores and dashes");
    return name;
}

/** `tools` of spec 2.1: function definitions with unique names and a JSON Schema object for `parameters`. */
export function readTools(value: unknown, path: FieldPath): ChatTool[] {
    const seen = new Set<string>();
    return readArray(value, path).map((item, index) => {
        const itemPath = [...path, index];
        const tool = readObject(item, itemPath);
        required(tool, "type", itemPath, (type, typePath) => readEnum(type, typePath, ["function"] as const));
        const fn = required(tool, "function", itemPath, readObject);
        const fnPath = [...itemPath, "function"];
        const name = required(fn, "name", fnPath, readFunctionName);
        if (seen.has(name)) fail([...fnPath, "name"], `duplicates the function name ${JSON.stringify(name)}`);
        seen.add(name);
        return {
            type: "function",
            function: {
                name,
                description: optional(fn, "description", fnPath, readString),
                parameters: optional(fn, "parameters", fnPath, readObject)
            }
        };
    });
}

/** `tool_choice` of spec 2.5; `required` and named choices need the tools they point at. */
export function readToolChoice(value: unknown, path: FieldPath, tools: ChatTool[] | undefined): ChatToolChoice {
    if (typeof value === "string") {
        const choice = readEnum(value, path, ["auto", "none", "required"] as const);
        if (choice === "required" && (tools == null || tools.length === 0)) fail(path, "\"required\" needs at least one tool in tools");
        return choice;
    }
    const object = readObject(value, path);
    required(object, "type", path, (type, typePath) => readEnum(type, typePath, ["function"] as const));
    const fn = required(object, "function", path, readObject);
    const name = required(fn, "name", [...path, "function"], readFunctionName);
    if (!tools?.some((tool) => tool.function.name === name))
        fail([...path, "function", "name"], `names no function in tools: ${JSON.stringify(name)}`);
    return {type: "function", function: {name}};
}
