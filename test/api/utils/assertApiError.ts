import assert from "node:assert/strict";
import type {ApiReply} from "./callApi.ts";

/** Spec §7: the status, and the `{error: {message, type, code}}` envelope with all three as strings. */
export function assertApiError(reply: ApiReply, status: number, code: string, type = "invalid_request_error", messageIncludes?: string) {
    assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status}: ${reply.text.slice(0, 300)}`);
    assert.match(reply.headers.get("content-type") ?? "", /application\/json/);
    const error = reply.json?.error;
    assert.ok(error != null && typeof error === "object", `no error envelope in ${reply.text.slice(0, 300)}`);
    assert.equal(typeof error.message, "string");
    assert.ok(error.message.length > 0);
    assert.equal(error.code, code, error.message);
    assert.equal(error.type, type);
    if (messageIncludes != null) assert.ok(error.message.includes(messageIncludes), `message ${JSON.stringify(error.message)} should name ${messageIncludes}`);
}
