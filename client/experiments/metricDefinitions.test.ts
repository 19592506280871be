import {test} from "node:test";
import assert from "node:assert/strict";
import {formatCost, formatCount, formatInterval, formatLatency, formatMetric, formatPValue, metricDefinition, metricTitle} from "./metricDefinitions.ts";
import {verdictText} from "./summary.ts";
import type {Difference} from "./types.ts";

test("every metric has a label, a definition and a direction; losses are lower-is-better", () => {
    for (const metric of ["accuracy", "macro_f1", "auc", "pass_rate", "check:grounded"] as const) assert.equal(metricDefinition(metric).higherIsBetter, true, metric);
    for (const metric of ["brier", "log_loss", "ece", "mae"] as const) assert.equal(metricDefinition(metric).higherIsBetter, false, metric);
    assert.match(metricDefinition("ece", "yesno").definition, /P\(true\)/);
    assert.match(metricDefinition("check:grounded").definition, /grounded/);
    assert.equal(metricTitle("brier", "urgent", true), "urgent · Brier (calibrated)");
});

test("numbers are written one way", () => {
    assert.equal(formatMetric(0.8567), "0.857");
    assert.equal(formatMetric(null), "–");
    assert.equal(formatInterval(0.0612, 0.021, 0.1), "0.06 (0.02–0.10)");
    assert.equal(formatInterval(0.004, 0.001, 0.008), "0.004 (0.001–0.008)");
    assert.equal(formatInterval(-0.13, -0.161, -0.1), "-0.13 (-0.16 to -0.10)");
    assert.equal(formatCount(12345), "12,345");
    assert.equal(formatCost(0.01234), "0.0123");
    assert.equal(formatCost(null), "–");
    assert.equal(formatLatency(850.4), "850 ms");
    assert.equal(formatLatency(1250), "1.25 s");
    assert.equal(formatPValue(0.0004), "p < 0.001");
    assert.equal(formatPValue(0.0341), "p = 0.034");
});

const difference = (metric: Difference["metric"], delta: number, low: number, high: number, better: number | null) => ({metric, a: 0, b: 1, n: 50, delta, low, high, better});

test("verdicts name the better variant with its gain, or say there is no clear difference", () => {
    assert.equal(verdictText(difference("accuracy", 0.06, 0.02, 0.1, 1), "B"), "B is better by 0.06 (0.02–0.10)");
    assert.equal(verdictText(difference("accuracy", -0.06, -0.1, -0.02, 0), "A"), "A is better by 0.06 (0.02–0.10)");
    // Lower is better: B's Brier 0.05 lower is a gain of 0.05 for B.
    assert.equal(verdictText(difference("brier", -0.05, -0.08, -0.02, 1), "B"), "B is better by 0.05 (0.02–0.08)");
    assert.equal(verdictText(difference("ece", 0.05, 0.02, 0.08, 0), "A"), "A is better by 0.05 (0.02–0.08)");
    assert.equal(verdictText(difference("accuracy", 0.01, -0.03, 0.05, null), "A"), "no clear difference on 50 rows");
    assert.equal(verdictText({...difference("accuracy", 0, 0, 0, null), delta: null, low: null, high: null, n: 1}, "A"), "not enough rows to compare (1 row)");
});
