import assert from "node:assert/strict";
import {test} from "node:test";
import type {ApiKeyInfo, UsageRow} from "../../../../protocol/admin/contract.ts";
import {keyLabel, totalTokens, usageChart, usageTotals} from "./usage.ts";

const key = (id: string, name: string, hint: string): ApiKeyInfo => ({
    id, workspaceId: "ws_1", name, owner: {type: "workspace"}, visibility: "shared", hint, state: "active",
    createdAt: "2026-11-01T00:00:00.000Z", issuedAt: "2026-11-01T00:00:00.000Z", revokedAt: null
});
const keys = [key("key_a", "app", "ck_aaaaaaaaaaaa_"), key("key_b", "ci", "ck_bbbbbbbbbbbb_")];
const row = (day: string, keyId: string, model: string, uncached: number, cached: number, output: number, costMicros: number): UsageRow =>
    ({workspaceId: "ws_1", day, keyId, model, requests: 1, uncachedInputTokens: uncached, cachedInputTokens: cached, outputTokens: output, costMicros});
const rows = [
    row("2026-11-03", "key_a", "svc-1", 10, 5, 20, 70),
    row("2026-11-01", "key_a", "svc-1-decision", 100, 0, 2, 125),
    row("2026-11-01", "key_b", "svc-1", 1, 0, 1, 3),
    row("2026-11-03", "key_gone", "svc-1", 4, 0, 4, 9)
];

test("tokens count uncached and cached input and output", () => {
    assert.equal(totalTokens(rows[0]), 35);
});

test("a key reads as its name and public start; a key no longer listed as its id", () => {
    assert.equal(keyLabel("key_b", keys), "ci (ck_bbbbbbbbbbbb_…)");
    assert.equal(keyLabel("key_gone", keys), "key_gone");
});

test("the chart has a point per day, oldest first, and a series per key, summed", () => {
    const chart = usageChart(rows, "key", "tokens", keys);
    assert.deepEqual(chart.series, ["app (ck_aaaaaaaaaaaa_…)", "ci (ck_bbbbbbbbbbbb_…)", "key_gone"]);
    assert.deepEqual(chart.points, [
        {day: "2026-11-01", "app (ck_aaaaaaaaaaaa_…)": 102, "ci (ck_bbbbbbbbbbbb_…)": 2},
        {day: "2026-11-03", "app (ck_aaaaaaaaaaaa_…)": 35, "key_gone": 8}
    ]);
});

test("by model and by cost, the series are models and the values integer micro-units", () => {
    const chart = usageChart(rows, "model", "cost", keys);
    assert.deepEqual(chart.series, ["svc-1", "svc-1-decision"]);
    assert.deepEqual(chart.points, [{day: "2026-11-01", "svc-1": 3, "svc-1-decision": 125}, {day: "2026-11-03", "svc-1": 79}]);
});

test("totals sum every day per model, the costliest first", () => {
    assert.deepEqual(usageTotals(rows, "model", keys), [
        {name: "svc-1-decision", requests: 1, inputTokens: 100, cachedInputTokens: 0, outputTokens: 2, costMicros: 125},
        {name: "svc-1", requests: 3, inputTokens: 15, cachedInputTokens: 5, outputTokens: 25, costMicros: 82}
    ]);
    assert.deepEqual(usageTotals([], "key", keys), []);
});
