// Crafted JSON for the hostile-input tests: values nested far deeper than any real request.

/**
 * The JSON text of `leaf` inside `depth` nested arrays. Built as text: JSON.stringify of a value nested 5,000 deep
 * overflows the stack, while V8's JSON.parse reads it (so the server sees exactly this value).
 */
export function nestedArraysText(depth: number, leaf: unknown = "user"): string {
    return "[".repeat(depth) + JSON.stringify(leaf) + "]".repeat(depth);
}

/** The value of nestedArraysText, built without recursion. */
export function nestedArrays(depth: number, leaf: unknown = "user"): unknown {
    return JSON.parse(nestedArraysText(depth, leaf));
}

/** A valid JSON Schema of `levels` object schemas, each holding the next as its property `a`; the last is a string. */
export function nestedObjectSchema(levels: number): Record<string, unknown> {
    let schema: Record<string, unknown> = {type: "string"};
    for (let level = 0; level < levels; level++) schema = {type: "object", properties: {a: schema}, required: ["a"]};
    return schema;
}

/** The JSON text of `body` with the string `marker` (wherever it stands as a value) replaced by the raw JSON `raw`. */
export function bodyWithRaw(body: unknown, marker: string, raw: string): string {
    const text = JSON.stringify(body);
    const quoted = JSON.stringify(marker);
    if (!text.includes(quoted)) throw new Error(`the body holds no ${quoted}`);
    return text.split(quoted).join(raw);
}
