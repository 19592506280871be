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
