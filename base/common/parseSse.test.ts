import {test} from "node:test";
import assert from "node:assert/strict";
import {parseSse, type ParsedSseEvent} from "./sse.ts";

const encoder = new TextEncoder();

function streamOf(chunks: Uint8Array[], onCancel?: () => void): ReadableStream<Uint8Array> {
    let index = 0;
    return new ReadableStream<Uint8Array>({
        pull(controller) {
            if (index < chunks.length) controller.enqueue(chunks[index++]);
            else controller.close();
        },
        cancel() {
            onCancel?.();
        }
    });
}

async function collect(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, stopAtDone = true): Promise<ParsedSseEvent[]> {
    const events: ParsedSseEvent[] = [];
    for await (const event of parseSse(source, {stopAtDone})) events.push(event);
    return events;
}

/** Splits bytes at the given offsets. */
function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
    const pieces: Uint8Array[] = [];
    let start = 0;
    for (const cut of [...cuts, bytes.length]) {
        pieces.push(bytes.slice(start, cut));
        start = cut;
    }
    return pieces;
}

// Every feature at once: comments, event names, ids, multi-line data, an empty data line, a field with no
// colon, a value without the optional space, unknown fields, multibyte UTF-8, and mixed line ends.
const wire = [
    ": keep-alive comment\r\n",
    "retry: 1500\r\n",
    "event: response.created\r\n",
    "id: 7\r\n",
    "data: {\"type\":\"response.created\"}\r\n",
    "\r\n",
    "data: first line\n",
    "data:second line without space\n",
    "data\n",
    "unknown: ignored\n",
    "data: ünïcødé 日本語 🙂\n",
    "\n",
    "event: ping\r",
    "data: cr-only\r",
    "\r",
    ":comment between events\n",
    "data: {\"choices\":[]}\n\n",
    "data: [DONE]\n\n",
    "data: after done\n\n"
].join("");

const expected: ParsedSseEvent[] = [
    {event: "response.created", data: "{\"type\":\"response.created\"}", id: "7", retry: 1500, done: false},
    {event: "message", data: "first line\nsecond line without space\n\nünïcødé 日本語 🙂", id: "7", done: false},
    {event: "ping", data: "cr-only", id: "7", done: false},
    {event: "message", data: "{\"choices\":[]}", id: "7", done: false},
    {event: "message", data: "[DONE]", id: "7", done: true}
];

test("parses every field kind of the SSE format in one chunk", async () => {
    assert.deepEqual(await collect(streamOf([encoder.encode(wire)])), expected);
});

test("gives the same events for every split into two and three pieces", async () => {
    const bytes = encoder.encode(wire);
    for (let first = 1; first < bytes.length; first++) {
        assert.deepEqual(await collect(streamOf(splitAt(bytes, [first]))), expected, `split at ${first}`);
        // Three pieces: a second cut a few bytes on, which lands inside CRLFs, field names and UTF-8 sequences.
        for (const gap of [1, 2, 3]) {
            if (first + gap >= bytes.length) continue;
            assert.deepEqual(await collect(streamOf(splitAt(bytes, [first, first + gap]))), expected, `split at ${first} and ${first + gap}`);
        }
    }
});

test("gives the same events one byte at a time and in seeded random pieces", async () => {
    const bytes = encoder.encode(wire);
    assert.deepEqual(await collect(streamOf(splitAt(bytes, Array.from({length: bytes.length - 1}, (_, index) => index + 1)))), expected);
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
        const cuts = new Set<number>();
        const count = 1 + Math.floor(random() * 20);
        while (cuts.size < count) cuts.add(1 + Math.floor(random() * (bytes.length - 1)));
        const sorted = [...cuts].sort((a, b) => a - b);
        assert.deepEqual(await collect(streamOf(splitAt(bytes, sorted))), expected, `cuts ${sorted.join(",")}`);
    }
});

test("accepts an async iterable of chunks as well as a ReadableStream", async () => {
    async function* chunks() {
        for (const piece of splitAt(encoder.encode(wire), [5, 50, 51, 120])) yield piece;
    }
    assert.deepEqual(await collect(chunks()), expected);
});

test("stops at [DONE] and cancels the source so nothing after it is read", async () => {
    let cancelled = false;
    let pulledAfterDone = false;
    const source = new ReadableStream<Uint8Array>({
        start(controller) {
            controller.enqueue(encoder.encode("data: {\"a\":1}\n\ndata: [DONE]\n\n"));
        },
        pull() {
            pulledAfterDone = true;
        },
        cancel() {
            cancelled = true;
        }
    }, {highWaterMark: 0});
    const events = await collect(source);
    assert.deepEqual(events.map((event) => event.data), ["{\"a\":1}", "[DONE]"]);
    assert.equal(cancelled, true);
    assert.equal(pulledAfterDone, false);
});

test("keeps reading past [DONE] when asked to", async () => {
    const events = await collect(streamOf([encoder.encode(wire)]), false);
    assert.deepEqual(events.map((event) => event.data).slice(-2), ["[DONE]", "after done"]);
    assert.deepEqual(events.map((event) => event.done), [false, false, false, false, true, false]);
});

test("drops an event cut off before its blank line, and events with no data", async () => {
    const events = await collect(streamOf([encoder.encode("event: only-a-name\n\ndata: kept\n\ndata: cut off")]));
    assert.deepEqual(events.map((event) => event.data), ["kept"]);
});

test("a CR at the end of one chunk and LF at the start of the next is one line end", async () => {
    // Were the CR and LF read as two line ends, the empty line between would dispatch "a" early,
    // and "b" would become its own event.
    const events = await collect(streamOf([encoder.encode("data: a\r"), encoder.encode("\ndata: b\r"), encoder.encode("\n\r\n")]));
    assert.deepEqual(events.map((event) => event.data), ["a\nb"]);
});

test("a trailing lone CR at the end of the stream still ends the event", async () => {
    const events = await collect(streamOf([encoder.encode("data: x\r\r")]));
    assert.deepEqual(events.map((event) => event.data), ["x"]);
});

test("strips a leading BOM even when it is split across chunks", async () => {
    const bytes = encoder.encode("\uFEFFdata: bom\n\n");
    const events = await collect(streamOf([bytes.slice(0, 1), bytes.slice(1, 2), bytes.slice(2)]));
    assert.deepEqual(events.map((event) => event.data), ["bom"]);
});

test("leaving the loop early cancels the source", async () => {
    let cancelled = false;
    const source = streamOf([encoder.encode("data: 1\n\n"), encoder.encode("data: 2\n\n"), encoder.encode("data: 3\n\n")], () => {
        cancelled = true;
    });
    for await (const event of parseSse(source)) {
        assert.equal(event.data, "1");
        break;
    }
    assert.equal(cancelled, true);
});

test("a very long line fed in tiny pieces is parsed whole", async () => {
    const long = "x".repeat(200_000);
    const bytes = encoder.encode(`data: ${long}\n\n`);
    const pieces = splitAt(bytes, Array.from({length: Math.floor(bytes.length / 7)}, (_, index) => (index + 1) * 7).filter((cut) => cut < bytes.length));
    const started = performance.now();
    const events = await collect(streamOf(pieces));
    assert.equal(events.length, 1);
    assert.equal(events[0].data, long);
    // Growing one string per piece is quadratic (V8 flattens it on every scan): ~6 s here, against ~0.4 s.
    assert.ok(performance.now() - started < 2500);
});
