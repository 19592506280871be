import {test} from "node:test";
import assert from "node:assert/strict";
import {ApiError} from "../../protocol/errors.ts";
import {readApiError} from "./errors.ts";

test("reads the spec §7 envelope, keeping param, ref, usage and the server's type", async () => {
    const body = {error: {message: "questions[0]: must hold at least two choices", type: "invalid_request_error", code: "invalid_request", param: "questions", ref: "r-1"}, usage: {prompt_tokens: 3}};
    const error = await readApiError(new Response(JSON.stringify(body), {status: 400, headers: {"content-type": "application/json", "x-client-trace-id": "t-9"}}));
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.code, "invalid_request");
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.message, body.error.message);
    assert.equal(error.param, "questions");
    assert.equal(error.ref, "r-1");
    assert.deepEqual(error.usage, {prompt_tokens: 3});
    assert.equal(error.traceId, "t-9");
    assert.deepEqual(error.body, body);
});

test("the server's type wins over the one ApiError would derive from the code", async () => {
    const error = await readApiError(new Response(JSON.stringify({error: {message: "m", type: "authentication_error", code: "some_new_code"}}), {status: 401}));
    assert.equal(error.code, "some_new_code");
    assert.equal(error.type, "authentication_error");
});

test("reads the 422 detail body of /v1/systemone into a message naming each path", async () => {
    const body = {detail: [{loc: ["body", "questions", "q1", "criteria"], msg: "needs at least two options", type: "value_error"}, {loc: ["body", "stream"], msg: "extra field", type: "value_error"}]};
    const error = await readApiError(new Response(JSON.stringify(body), {status: 422}));
    assert.equal(error.status, 422);
    assert.deepEqual(error.detail, body.detail);
    assert.match(error.message, /body\.questions\.q1\.criteria: needs at least two options/);
    assert.match(error.message, /body\.stream: extra field/);
});

test("a 5xx with no body is classified by status", async () => {
    for (const [status, code] of [[502, "upstream_error"], [503, "service_unavailable"], [500, "server_error"]] as const) {
        const error = await readApiError(new Response(null, {status, statusText: "Oops"}));
        assert.equal(error.status, status);
        assert.equal(error.code, code);
        assert.equal(error.type, "api_error");
        assert.equal(error.message, `HTTP ${status} Oops`);
        assert.equal(error.body, null);
    }
});

test("a non-JSON body is quoted in the message", async () => {
    const error = await readApiError(new Response("<html>Bad Gateway</html>", {status: 502, headers: {"content-type": "text/html"}}));
    assert.equal(error.code, "upstream_error");
    assert.match(error.message, /^HTTP 502: <html>Bad Gateway<\/html>$/);
    assert.equal(error.body, "<html>Bad Gateway</html>");
});

test("keeps Retry-After in seconds, given as seconds or as an HTTP date", async () => {
    const seconds = await readApiError(new Response(JSON.stringify({error: {message: "slow down", type: "rate_limit_exceeded", code: "rate_limit_exceeded"}}), {status: 429, headers: {"retry-after": "3"}}));
    assert.equal(seconds.retryAfter, 3);
    const now = Date.parse("2026-01-01T00:00:00Z");
    const dated = await readApiError(new Response(null, {status: 503, headers: {"retry-after": new Date(now + 7000).toUTCString()}}), now);
    assert.equal(dated.retryAfter, 7);
    const none = await readApiError(new Response(null, {status: 503}));
    assert.equal(none.retryAfter, undefined);
});
