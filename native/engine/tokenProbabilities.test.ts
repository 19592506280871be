import assert from "node:assert/strict";
import {test} from "node:test";
import type {Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import {locateOutputTokens} from "./tokenProbabilities.ts";

const tokens = (...ids: number[]) => ids as Token[];

test("output tokens are found after the prompt; the last sampled one, never evaluated, sits at the end", () => {
    // prompt 1 2 3, then 7 8 9 sampled: the sequence holds 7 and 8 only.
    assert.deepEqual(locateOutputTokens(tokens(1, 2, 3, 7, 8), 3, tokens(7, 8, 9)),
        [{position: 3, token: 7}, {position: 4, token: 8}, {position: 5, token: 9}]);
});

test("tokens that were not emitted as content (reasoning) are skipped, and prompt tokens are never matched", () => {
    // prompt 5 6, then thought 6 6 and content 5 6 sampled (the last not evaluated).
    assert.deepEqual(locateOutputTokens(tokens(5, 6, 6, 6, 5), 4, tokens(5, 6)),
        [{position: 4, token: 5}, {position: 5, token: 6}]);
});

test("tokens that cannot be matched are a 500, never scores at wrong positions", () => {
    assert.throws(() => locateOutputTokens(tokens(1, 2, 3), 1, tokens(8, 9)), (error) => error instanceof ApiError && error.status === 500);
});
