import {fail, optional, readBoolean, readEnum, readObject, readString, required} from "../validation/read.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import type {ResponseFormat} from "./types.ts";

/** `response_format` of spec 2.7; the schema's validity as JSON Schema is checked by the engine before generation. */
export function readResponseFormat(value: unknown, path: FieldPath): ResponseFormat {
    const object = readObject(value, path);
    const type = required(object, "type", path, (item, itemPath) => readEnum(item, itemPath, ["text", "json_object", "json_schema"] as const));
    if (type !== "json_schema") return {type};
    const jsonSchema = required(object, "json_schema", path, readObject);
    const schemaPath = [...path, "json_schema"];
    const name = required(jsonSchema, "name", schemaPath, readString);
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) fail([...schemaPath, "name"], "must be 1-64 characters of a-z, A-Z, 0-9, underscores and dashes");
    return {
        type,
        json_schema: {
            name,
            description: optional(jsonSchema, "description", schemaPath, readString),
            schema: optional(jsonSchema, "schema", schemaPath, readObject),
            strict: optional(jsonSchema, "strict", schemaPath, readBoolean)
        }
    };
}
