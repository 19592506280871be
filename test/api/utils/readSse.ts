import assert from "node:assert/strict";

/**
 * The `data:` payloads of a server-sent-events body, in order. Asserts the framing of spec 6.1: every event is
 * one `data:` line followed by a blank line, and the last one is `[DONE]` (returned without it).
 */
export function readSse(text: string): any[] {
    assert.ok(text.endsWith("\n\n"), "the stream ends with a complete event");
    const events = text.slice(0, -2).split("\n\n");
    const payloads = events.map((event) => {
        assert.match(event, /^data: [^\n]*$/, `event ${JSON.stringify(event.slice(0, 100))} is one data line`);
        return event.slice("data: ".length);
    });
    assert.equal(payloads.at(-1), "[DONE]", "the stream ends with data: [DONE]");
    return payloads.slice(0, -1).map((payload) => JSON.parse(payload));
}
