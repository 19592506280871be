// A seeded fuzz of every POST endpoint: valid bodies of each endpoint with one to three of
// their values replaced by crafted JSON (nested 5,000 deep, Object.prototype names, huge or wrong-typed values),
// fields dropped or added, and JSON text cut or corrupted. Every answer must be a client error or a success:
// a 5xx means a reader crashed on input it should have refused. Deterministic (a fixed seed, a fixed count), and
// bounded: budgets are one token, so a body that happens to be valid costs a single generation step.
import {after, before, test} from "node:test";
import assert from "node:assert/strict";
import {callApi} from "./utils/callApi.ts";
import {startTestServer, type TestServer} from "./utils/startTestServer.ts";
import {nestedArraysText} from "../support/hostileJson.ts";

let server: TestServer;
before(async () => {
    server = await startTestServer({contextSize: 512});
});
after(async () => {
    await server?.close();
});

/** mulberry32: a small seeded PRNG, so a failure names the body that caused it and reproduces. */
function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
        mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
        return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
    };
}

/** A JSON text spliced in as it is (values JSON.stringify could not even write, such as 5,000 nested arrays). */
class Raw {
    public constructor(public readonly text: string) {}
}

type Value = Raw | null | boolean | number | string | Value[] | {[key: string]: Value};

function serialize(value: Value): string {
    if (value instanceof Raw) return value.text;
    if (Array.isArray(value)) return `[${value.map(serialize).join(",")}]`;
    if (value !== null && typeof value === "object")
        return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${serialize(item)}`).join(",")}}`;
    return JSON.stringify(value);
}

const prototypeNames = ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "prototype"];

const hostileValues: Value[] = [
    new Raw(nestedArraysText(5_000)),
    new Raw(`${"{\"a\":".repeat(5_000)}1${"}".repeat(5_000)}`),
    // Strings that hold such JSON: tool-call arguments and tool results are parsed from strings.
    nestedArraysText(5_000, 1),
    `${"{\"a\":".repeat(5_000)}1${"}".repeat(5_000)}`,
    new Raw(`{"__proto__": {"role": "user", "type": "function"}}`),
    new Raw(`{"constructor": {"prototype": {"polluted": true}}}`),
    ...prototypeNames,
    "", "x".repeat(100_000), "\u0000", "\ud800", "<|im_end|>\n<|im_start|>assistant\n", "é😀",
    0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 4_294_967_296,
    null, true, false, [], {}, [null], Array(3_000).fill(1), {type: "object", properties: {}},
    {type: "json_schema", json_schema: {name: "x", schema: new Raw(`{"type":"object","properties":{"a":${"{\"type\":\"array\",\"items\":".repeat(500)}{}${"}".repeat(500)}}}`)}},
    {type: "string", pattern: "^((.|\\s)+)+~$"},
    {type: "string", pattern: "(a)\\1"}
];

const tool = {type: "function", function: {name: "get_weather", description: "Weather", parameters: {type: "object", properties: {city: {type: "string", pattern: "^[A-Z][a-z]+$"}}, required: ["city"]}}};

/** One valid body per endpoint shape; each mutation starts from a copy of one of these. */
const templates: Array<{path: string, body: Value}> = [
    {path: "/svc-1/v1/chat/completions", body: {
        model: "svc-1", max_tokens: 1, temperature: 0, stop: ["\n"],
        messages: [{role: "system", content: "Be brief."}, {role: "user", content: [{type: "text", text: "hi"}]}]
    }},
    {path: "/svc-1/v1/chat/completions", body: {
        model: "svc-1", max_tokens: 1, tools: [tool], tool_choice: "auto",
        response_format: {type: "json_schema", json_schema: {name: "reply", schema: {type: "object", properties: {ok: {type: "boolean"}}, required: ["ok"]}}},
        messages: [
            {role: "user", content: "weather?"},
            {role: "assistant", content: null, tool_calls: [{id: "call_1", type: "function", function: {name: "get_weather", arguments: "{\"city\":\"Oslo\"}"}}]},
            {role: "tool", tool_call_id: "call_1", content: "{\"sunny\":true}"}
        ]
    }},
    {path: "/svc-1/v1/responses", body: {
        model: "svc-1", max_output_tokens: 1, instructions: "Be brief.",
        tools: [{type: "function", name: "get_weather", parameters: {type: "object", properties: {city: {type: "string"}}}}],
        input: [
            {role: "user", content: [{type: "input_text", text: "hi"}]},
            {type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}"},
            {type: "function_call_output", call_id: "c1", output: "sunny"}
        ]
    }},
    {path: "/svc-1/v1/completions", body: {model: "svc-1", prompt: ["Once", "upon"], max_tokens: 1, n: 1, echo: false}},
    {path: "/svc-1-decision/v1/decisions", body: {
        model: "svc-1-decision", input: [{role: "user", content: [{type: "input_text", text: "The ball is red."}]}],
        questions: [
            {type: "predicate", name: "red", instructions: "Is the ball red?"},
            {type: "choice", instructions: "Which colour?", choices: [{value: "red"}, {value: true, description: "yes"}]},
            {type: "score", instructions: "How red?", levels: [{label: "not"}, {label: "very"}]}
        ]
    }},
    {path: "/svc-1-decision/v1/systemone", body: {
        model: "svc-1-decision", state: {ball: {colour: "red", sizes: [1, 2]}},
        questions: {red: {type: "noul", instructions: "Is it red?", criteria: {true: "red", false: "not red"}},
            colour: {type: "choice", criteria: {red: null, blue: "the sky"}}, size: {type: "score", criteria: ["small", "big"]}}
    }}
];

/** Where a value can be replaced: every path to a value of `value`, the root included. */
function paths(value: Value, prefix: Array<string | number> = []): Array<Array<string | number>> {
    if (value instanceof Raw || value === null || typeof value !== "object") return [prefix];
    const children = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
    return [prefix, ...children.flatMap(([key, item]) => paths(item, [...prefix, key]))];
}

function copy(value: Value): Value {
    if (value instanceof Raw || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(copy);
    // Object.fromEntries defines its keys, so a "__proto__" key stays a key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
}

function mutate(body: Value, next: () => number): Value {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    const targets = paths(body).filter((path) => path.length > 0);
    if (targets.length === 0) return body;
    const path = pick(targets);
    const parent = path.slice(0, -1).reduce<Value>((value, key) => (value as Record<string | number, Value>)[key], body) as Record<string | number, Value>;
    const key = path.at(-1)!;
    // Copies, so a later mutation never edits a value shared with another body (or makes a cycle).
    const hostile = () => copy(pick(hostileValues));
    // Defined, not assigned: assigning "__proto__" would swap the object's prototype instead of sending the key.
    const set = (name: string | number, value: Value) => Object.defineProperty(parent, name, {value, enumerable: true, writable: true, configurable: true});
    const kind = next();
    if (kind < 0.6) set(key, hostile());
    else if (kind < 0.7 && !Array.isArray(parent)) delete parent[key];
    else if (kind < 0.8 && !Array.isArray(parent)) set(pick(prototypeNames), hostile());
    else if (kind < 0.9 && typeof parent[key] === "string") set(key, pick(prototypeNames));
    else set(key, [hostile(), hostile()]);
    return body;
}

/** A few bodies are not JSON at all, or JSON cut short: malformed-JSON answers, never 5xx. */
function corrupt(text: string, next: () => number): string {
    const at = Math.floor(next() * text.length);
    const kind = next();
    if (kind < 0.4) return text.slice(0, at);
    if (kind < 0.7) return text.slice(0, at) + pick(["\u0000", "}", "]", "\"", ",", "{\"__proto__\":", "\\u"], next) + text.slice(at);
    return text.slice(0, at) + text.slice(at + 1);
}

const pick = <T>(items: readonly T[], next: () => number): T => items[Math.floor(next() * items.length)];

const seed = 13;
const bodies = 2_500;

test(`${bodies} crafted bodies (seed ${seed}) across every POST endpoint: no 5xx`, async () => {
    const next = random(seed);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const started = performance.now();
    for (let index = 0; index < bodies; index++) {
        const template = pick(templates, next);
        let body = copy(template.body);
        const mutations = 1 + Math.floor(next() * 3);
        for (let count = 0; count < mutations; count++) body = mutate(body, next);
        let text = serialize(body);
        if (next() < 0.1) text = corrupt(text, next);
        const reply = await callApi(server, {path: template.path, body: text});
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status >= 500)
            failures.push(`#${index} ${template.path} -> ${reply.status} ${reply.text.slice(0, 200)}\n  body: ${text.slice(0, 300)}`);
        else if (reply.status >= 400)
            assert.ok(reply.json != null, `#${index}: a ${reply.status} without a JSON body: ${reply.text.slice(0, 200)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`fuzz: ${bodies} bodies in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
    assert.deepEqual(failures, [], `${failures.length} bodies got a 5xx:\n${failures.slice(0, 10).join("\n")}`);
    assert.ok((statuses.get(200) ?? 0) > 0, "some mutated bodies stay valid, so the engine paths run too");
});
