import {test} from "node:test";
import assert from "node:assert/strict";
import {formatMoney, parseMoney} from "./money.ts";
import {adminRoutes, adminTable, createAdminClient} from "./routes.ts";
import {usageCsv} from "./usageCsv.ts";
import {meteredTokens} from "../usage.ts";

test("money: decimal text to integer micro-units and back, never through a float", () => {
    assert.equal(parseMoney("12.5"), 12_500_000);
    assert.equal(parseMoney("0.000001"), 1);
    assert.equal(parseMoney("0.1"), 100_000);
    assert.equal(parseMoney("-2", {allowNegative: true}), -2_000_000);
    for (const bad of ["", "1e3", "0.1234567", "-1", "1.", ".5", "NaN", "9007199254.740992"]) assert.throws(() => parseMoney(bad), {code: "invalid_amount"}, bad);
    assert.equal(formatMoney(12_500_000), "12.50");
    assert.equal(formatMoney(123), "0.000123");
    assert.equal(formatMoney(-15), "-0.000015");
    assert.equal(formatMoney(0), "0.00");
});

test("usage of every endpoint family in the three billed counts (spec 2.3)", () => {
    assert.deepEqual(meteredTokens({prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: {cached_tokens: 4}}), {uncachedInputTokens: 6, cachedInputTokens: 4, outputTokens: 3});
    assert.deepEqual(meteredTokens({input_tokens: 9, output_tokens: 2, input_tokens_details: {cached_tokens: 0}}), {uncachedInputTokens: 9, cachedInputTokens: 0, outputTokens: 2});
    assert.deepEqual(meteredTokens({input_tokens: 5, output_tokens: 0}), {uncachedInputTokens: 5, cachedInputTokens: 0, outputTokens: 0});
    assert.deepEqual(meteredTokens({prompt_tokens: 2, prompt_tokens_details: {cached_tokens: 7}}), {uncachedInputTokens: 0, cachedInputTokens: 2, outputTokens: 0});
});

test("admin routes: each matches its own path; the client sends method, encoded path, body and query", async () => {
    for (const [name, route] of Object.entries(adminRoutes))
        assert.equal(adminTable.match(route.method, adminTable.path(name as keyof typeof adminRoutes, {id: "a b"}))?.name, name);
    const sent: unknown[] = [];
    const client = createAdminClient(async (...call) => void sent.push(call));
    await client.rotateKey("key/1");
    await client.keys("ws 1");
    await client.addCredits("ws_1", 5, "top-up");
    assert.deepEqual(sent, [["POST", "/keys/key%2F1/rotate", {}, undefined], ["GET", "/keys", undefined, "workspace=ws%201"],
        ["POST", "/workspaces/ws_1/credits", {amountMicros: 5, note: "top-up"}, undefined]]);
});

test("usage CSV: a header, the groups asked for, money in currency units, quoted where needed", () => {
    const csv = usageCsv([{workspaceId: "ws", model: "svc,1", requests: 2, uncachedInputTokens: 5, cachedInputTokens: 1, outputTokens: 3, costMicros: 1_500_000}], ["model"]);
    assert.equal(csv, "workspace,model,requests,uncached_input_tokens,cached_input_tokens,output_tokens,cost\r\nws,\"svc,1\",2,5,1,3,1.50\r\n");
});
