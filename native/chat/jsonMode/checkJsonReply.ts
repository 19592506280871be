import type {JsonValidator} from "../jsonSchema/compileJsonSchema.ts";

/**
 * Why `text` breaks the JSON contract, or undefined when it keeps it: one JSON value with nothing around it,
 * an object for `json_object` (spec 2.7.1), a value the schema accepts for `json_schema` (2.7.2).
 */
export function checkJsonReply(text: string, validate: JsonValidator | undefined): string | undefined {
    let value: unknown;
    try {
        value = JSON.parse(text);
    } catch (error) {
        return `the reply is not JSON (${(error as Error).message})`;
    }
    if (validate != null) return validate(value);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? undefined : "the reply is not a JSON object";
}
