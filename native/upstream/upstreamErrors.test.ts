// How an upstream engine's failures and log-probability shapes are read: spec §7's statuses and codes, and
// the three shapes engines answer alternatives in (llama-server after sampling, with ids, and OpenAI's legacy text keys).
import {test} from "node:test";
import assert from "node:assert/strict";
import {unreachable, upstreamStatusError} from "./UpstreamClient.ts";
import {nextTokenLogprobs} from "./labelProbabilities.ts";

test("upstream statuses become spec §7 errors, keeping Retry-After on 429 and 503", () => {
    const cases: Array<[number, string | null, number, string, number | undefined]> = [
        [400, null, 400, "request_rejected", undefined],
        [422, null, 400, "request_rejected", undefined],
        [401, null, 502, "upstream_error", undefined],
        [404, null, 502, "upstream_error", undefined],
        [429, "7", 429, "service_busy", 7],
        [429, null, 429, "service_busy", 1],
        [503, "2.5", 503, "service_unavailable", 3],
        [500, null, 502, "upstream_error", undefined],
        [504, null, 502, "upstream_error", undefined]
    ];
    for (const [status, retryAfter, expected, code, seconds] of cases) {
        const error = upstreamStatusError(status, JSON.stringify({error: {message: "context is 4096 tokens"}}), retryAfter);
        assert.deepEqual([error.status, error.code, error.retryAfter], [expected, code, seconds], `upstream ${status}`);
        assert.match(error.message, /context is 4096 tokens/);
    }
    assert.match(upstreamStatusError(500, "<html>oops</html>", null).message, /<html>oops/);
    const refused = unreachable("http://10.0.0.9:8000/v1/chat/completions", Object.assign(new TypeError("fetch failed"), {cause: {code: "ECONNREFUSED"}}));
    assert.deepEqual([refused.status, refused.code], [502, "upstream_error"]);
    assert.match(refused.message, /http:\/\/10\.0\.0\.9:8000 cannot be reached \(ECONNREFUSED\)/);
});

test("next-token alternatives by id, from each engine's shape", () => {
    assert.deepEqual([...nextTokenLogprobs({content: [{id: 5, prob: 0.5, top_probs: [{id: 5, prob: 0.5}, {id: 9, prob: 0.25}]}]})],
        [[5, Math.log(0.5)], [9, Math.log(0.25)]]);
    assert.deepEqual([...nextTokenLogprobs({content: [{id: 5, logprob: -1, top_logprobs: [{id: 5, logprob: -1}, {id: 7, logprob: -2}]}]})], [[5, -1], [7, -2]]);
    assert.deepEqual([...nextTokenLogprobs({top_logprobs: [{"token_id:12": -0.1, "token_id:3": -3, " the": -4}]})], [[12, -0.1], [3, -3]]);
    assert.equal(nextTokenLogprobs(null).size, 0);
});
