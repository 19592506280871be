import type {Llama, LlamaGrammar, ChatHistoryItem} from "node-llama-cpp";
import type {ResponseFormat} from "../../protocol/chat/types.ts";
import {Ajv, type ValidateFunction} from "ajv";
import {Ajv2019} from "ajv/dist/2019.js";
import {Ajv2020} from "ajv/dist/2020.js";
import {ValidationError, type FieldPath} from "../../protocol/validation.ts";
import {linearRegExp, UnsupportedPatternError} from "../../protocol/linearRegExp.ts";

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

/**
 * The grammar that constrains a JSON-mode reply (spec 2.7): any JSON object for `json_object`, the schema's own
 * grammar for `json_schema`. A schema node-llama-cpp cannot turn into a grammar falls back to "any JSON object";
 * the reply is validated against the schema either way, and regenerated when it does not conform.
 */
export async function createJsonGrammar(llama: Llama, schema: Record<string, unknown> | undefined): Promise<LlamaGrammar> {
    if (schema == null) return llama.getGrammarFor("json");
    try {
        return await llama.createGrammarForJsonSchema(toGrammarSchema(schema));
    } catch {
        return llama.getGrammarFor("json");
    }
}

/**
 * Tells the model the JSON contract in a system message placed after the client's own system messages. The
 * schema is part of the prompt this way, so it counts toward `prompt_tokens` and the window (spec 2.7.3).
 */
export function withFormatInstruction(history: ChatHistoryItem[], format: ResponseFormat | undefined): ChatHistoryItem[] {
    if (format == null || format.type === "text") return history;
    const text = format.type === "json_object"
        ? "Reply with one JSON object only: no prose before or after it and no code fence."
        : "Reply with one JSON value only, with no prose and no code fence, that validates against this JSON Schema:\n" +
            JSON.stringify(format.json_schema.schema ?? {});
    const at = history.findIndex((item) => item.type !== "system");
    const index = at < 0 ? history.length : at;
    return [...history.slice(0, index), {type: "system", text}, ...history.slice(index)];
}

export type JsonValidator = (value: unknown) => string | undefined;

// `format` is not checked (no format vocabulary is installed; the grammar shapes formatted strings instead), so no
// format regular expression ever runs, and unknown keywords are allowed, as in any JSON Schema consumer that is
// not in strict mode. `pattern` and `patternProperties` run on the linear-time engine (linearRegExp.ts).
// A new Ajv per schema: a shared one would keep every request's schema forever and refuse a second schema
// that reuses an `$id`.
const options = {strict: false, validateFormats: false, allErrors: true, code: {regExp: linearRegExp}} as const;
const dialects = {
    "2020-12": () => new Ajv2020(options),
    "2019-09": () => new Ajv2019(options),
    "draft-07": () => new Ajv(options)
};

/**
 * Checks that `schema` (at `path` in the request) is a valid JSON Schema, before anything is generated
 * (spec 2.7.4: 400 with `is not a valid JSON Schema`), and returns a validator that describes why a value
 * does not conform, or undefined when it does.
 */
export function compileJsonSchema(schema: Record<string, unknown>, path: FieldPath): JsonValidator {
    const dialect = typeof schema.$schema === "string" ? schema.$schema : "2020-12";
    const version = (Object.keys(dialects) as Array<keyof typeof dialects>).find((name) => dialect.includes(name));
    if (version == null) throw invalid(path, `its $schema ${JSON.stringify(dialect)} is not a supported dialect (2020-12, 2019-09, draft-07)`);
    const ajv = dialects[version]();
    if (!ajv.validateSchema(schema)) throw invalid(path, ajv.errorsText(ajv.errors, {dataVar: "schema"}));
    let validate: ValidateFunction;
    try {
        validate = ajv.compile(schema);
    } catch (error) {
        if (error instanceof UnsupportedPatternError) throw new ValidationError(path, error.message);
        throw invalid(path, (error as Error).message);
    }
    return (value) => validate(value) ? undefined : ajv.errorsText(validate.errors, {dataVar: "value"});
}

function invalid(path: FieldPath, reason: string) {
    return new ValidationError(path, `is not a valid JSON Schema: ${reason}`);
}

/** Keywords whose value maps names to schemas: their keys are names, never keywords to rewrite. */
const schemaMaps = new Set(["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]);

/** Integer ranges up to this many values become an `enum`, which the grammar can enforce. */
const maxEnumeratedRange = 256;

/**
 * Rewrites a JSON Schema into what node-llama-cpp's grammar can enforce, without widening what it accepts:
 * `anyOf` becomes `oneOf` (as a grammar both mean "one of these alternatives"), and a small bounded integer
 * range becomes the `enum` of its values (the grammar knows no `minimum`/`maximum`). Other keywords the grammar
 * ignores (`pattern`, ...) stay: the reply is validated against the original schema afterwards.
 */
export function toGrammarSchema(schema: unknown): any {
    if (Array.isArray(schema)) return schema.map(toGrammarSchema);
    if (schema === null || typeof schema !== "object") return schema;
    const range = integerRange(schema as Record<string, unknown>);
    if (range != null) return {enum: range};
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
        if (schemaMaps.has(key) && value !== null && typeof value === "object")
            result[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, toGrammarSchema(item)]));
        else if (key === "anyOf" && !("oneOf" in schema)) result.oneOf = toGrammarSchema(value);
        else result[key] = toGrammarSchema(value);
    }
    return result;
}

/** The values of `{type: "integer", minimum, maximum}` (exclusive bounds too) when there are few enough. */
function integerRange(schema: Record<string, unknown>): number[] | undefined {
    if (schema.type !== "integer" || "enum" in schema || "const" in schema || "multipleOf" in schema) return undefined;
    const bound = (inclusive: unknown, exclusive: unknown, step: number) =>
        typeof inclusive === "number" ? inclusive : typeof exclusive === "number" ? exclusive + step : undefined;
    const low = bound(schema.minimum, schema.exclusiveMinimum, 1);
    const high = bound(schema.maximum, schema.exclusiveMaximum, -1);
    if (low == null || high == null) return undefined;
    const first = Math.ceil(low);
    const last = Math.floor(high);
    if (last < first || last - first + 1 > maxEnumeratedRange) return undefined;
    return Array.from({length: last - first + 1}, (_, index) => first + index);
}
