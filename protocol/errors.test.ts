import {test} from "node:test";
import assert from "node:assert/strict";
import {ApiError} from "./errors.ts";

test("5xx errors are typed api_error (spec §7), whatever their code; 4xx keep their own types", () => {
    assert.equal(new ApiError(500, "internal_error", "bug").type, "api_error");
    assert.equal(new ApiError(500, "internal_error", "bug").toEnvelope().error.type, "api_error");
    assert.equal(new ApiError(503, "service_unavailable", "down").type, "api_error");
    assert.equal(new ApiError(504, "some_new_code", "late").type, "api_error");
    assert.equal(new ApiError(400, "invalid_request", "bad").type, "invalid_request_error");
    assert.equal(new ApiError(401, "invalid_api_key", "who").type, "authentication_error");
    assert.equal(new ApiError(405, "method_not_allowed", "no").type, "invalid_request_error");
    // A code spelled like an Object.prototype member is no row of the table.
    assert.equal(new ApiError(400, "toString", "odd").type, "invalid_request_error");
});
