import {test} from "node:test";
import assert from "node:assert/strict";
import {formatCost, formatCount, formatInterval, formatLatency, formatLevel, formatMetric, formatPValue, metricDefinition, metricHover, metricTitle, passCheckName, passMetric, scoreCheckName, scoreMetric} from "./metricDefinitions.ts";
import {verdictText, type VerdictInput} from "./verdictText.ts";
import {brierDefinition, eceDefinition} from "../scoring/evaluation.ts";

test("every metric has a label, a definition and a direction; losses are lower-is-better", () => {
    for (const metric of ["accuracy", "macro_f1", "auc", "pass_rate", "pass:grounded", "score:grounded"] as const) assert.equal(metricDefinition(metric).higherIsBetter, true, metric);
    for (const metric of ["brier", "log_loss", "ece", "mae"] as const) assert.equal(metricDefinition(metric).higherIsBetter, false, metric);
    assert.match(metricDefinition("pass:grounded").definition, /^Share of rows whose reply passed the check "grounded".*error counts as failed/);
    assert.match(metricDefinition("score:grounded").definition, /^Mean of the grader "grounded"'s score, its P\(yes\)/);
    assert.equal(metricTitle("brier", "urgent", true), "urgent · Brier (calibrated)");
    assert.equal(metricTitle("pass:grounded"), "grounded");
    assert.equal(metricTitle("score:grounded"), "grounded score");
});

test("check metric keys: pass:<name> and score:<name>, built and read back", () => {
    assert.equal(passMetric("grounded"), "pass:grounded");
    assert.equal(scoreMetric("grounded"), "score:grounded");
    assert.equal(passCheckName("pass:contains_answer"), "contains_answer");
    assert.equal(passCheckName("score:grounded"), null);
    assert.equal(scoreCheckName("score:a:b"), "a:b");
    assert.equal(scoreCheckName("pass_rate"), null);
    // A key no run produces reads as itself rather than failing.
    assert.equal(metricDefinition("check:grounded" as never).label, "check:grounded");
});

test("definitions follow the question's kind: a yes/no ECE is on P(true), a choice's on the top option; Brier is one mean over the options", () => {
    assert.equal(metricDefinition("ece", "yesno").definition, eceDefinition("yesno"));
    assert.match(eceDefinition("yesno"), /bins of P\(true\)/);
    assert.equal(metricDefinition("ece", "choice").definition, eceDefinition("choice"));
    assert.match(eceDefinition("choice"), /predicted option's probability/);
    // Without a kind, both wordings, so no screen states the wrong one.
    assert.match(metricDefinition("ece").definition, /P\(true\) for a yes\/no question.*predicted option's probability for a choice/);
    for (const kind of ["yesno", "choice", "score", undefined] as const) {
        assert.match(metricDefinition("brier", kind).definition, /^Mean over the options of the squared gap/);
        assert.doesNotMatch(metricDefinition("brier", kind).definition, /summed/);
    }
    assert.match(brierDefinition("yesno"), /\(P\(true\) − y\)²/);
    // The direction is said once in every hover.
    for (const kind of ["yesno", "choice", "score", undefined] as const)
        for (const metric of ["brier", "log_loss", "ece", "mae"] as const)
            assert.equal(metricHover(metric, kind).match(/lower is better/gi)?.length, 1, `${metric} ${kind}`);
    assert.equal(metricHover("accuracy"), `Accuracy: ${metricDefinition("accuracy").definition}`);
});

test("numbers are written one way", () => {
    assert.equal(formatMetric(0.8567), "0.857");
    assert.equal(formatMetric(null), "–");
    assert.equal(formatInterval(0.0612, 0.021, 0.1), "0.06 (0.02–0.10)");
    assert.equal(formatInterval(0.004, 0.001, 0.008), "0.004 (0.001–0.008)");
    assert.equal(formatInterval(-0.13, -0.161, -0.1), "-0.13 (-0.16 to -0.10)");
    assert.equal(formatLevel(0.95), "95%");
    assert.equal(formatLevel(1 - 0.05 / 3), "98.3%");
    assert.equal(formatCount(12345), "12,345");
    // The Workspace screen's money format: two decimals from 0.01 up, the digits of a smaller cost.
    assert.equal(formatCost(0.01234), "0.01");
    assert.equal(formatCost(24.935645), "24.94");
    assert.equal(formatCost(0.000045), "0.000045");
    assert.equal(formatCost(null), "–");
    assert.equal(formatLatency(850.4), "850 ms");
    assert.equal(formatLatency(1250), "1.25 s");
    assert.equal(formatPValue(0.0004), "p < 0.001");
    assert.equal(formatPValue(0.0341), "p = 0.034");
});

test("a non-zero end of an interval shows its sign and first significant digit, never 0.00 or -0.00", () => {
    // Two decimals would print 0.00 for 0.004 and -0.00 for -0.001: more decimals are used instead.
    assert.equal(formatInterval(0.03, 0.004, 0.05), "0.030 (0.004–0.050)");
    assert.equal(formatInterval(0.02, 0.0004, 0.04), "0.0200 (0.0004–0.0400)");
    assert.equal(formatInterval(-0.03, -0.05, -0.001), "-0.030 (-0.050 to -0.001)");
    assert.equal(formatInterval(0.027, -0.0054597, 0.0266667), "0.027 (-0.005 to 0.027)");
    // An end that is 0 stays "0.00", and a difference that rounds to zero carries no sign.
    assert.equal(formatInterval(0, 0, 0), "0.00 (0.00–0.00)");
    assert.equal(formatInterval(-0.001, -0.09, 0.08), "0.00 (-0.09 to 0.08)");
    for (const [low, high] of [[0.0049, 0.2], [-0.3, -0.00051], [0.000012, 0.00003], [-0.0099, 0.5]]) {
        const text = formatInterval((low + high) / 2, low, high);
        assert.doesNotMatch(text, /\((-?0\.0+)(–| to )|(–| to )-?0\.0+\)/, text);
    }
});

const names = ["A", "B"];
const difference = (metric: VerdictInput["metric"], delta: number, low: number, high: number, better: number | null, primary = true): VerdictInput =>
    ({metric, a: 0, b: 1, n: 50, delta, low, high, better, primary, provisional: false, level: 0.95});

test("verdicts: the primary metric names the better variant, a secondary one only a direction, no clear difference shows its interval", () => {
    assert.equal(verdictText(difference("accuracy", 0.06, 0.02, 0.1, 1), names, 50), "B is better by 0.06 (0.02–0.10)");
    assert.equal(verdictText(difference("accuracy", -0.06, -0.1, -0.02, 0), names, 50), "A is better by 0.06 (0.02–0.10)");
    // Lower is better: B's Brier 0.05 lower is a gain of 0.05 for B, reported as a direction since Brier is secondary.
    assert.equal(verdictText(difference("brier", -0.05, -0.08, -0.02, 1, false), names, 50), "secondary: B lower by 0.05 (0.02–0.08)");
    assert.equal(verdictText(difference("ece", 0.05, 0.02, 0.08, 0, false), names, 50), "secondary: A lower by 0.05 (0.02–0.08)");
    assert.equal(verdictText(difference("pass:grounded", 0.05, 0.02, 0.08, 1, false), names, 50), "secondary: B higher by 0.05 (0.02–0.08)");
    assert.equal(verdictText(difference("accuracy", 0.01, -0.08, 0.1, null), names, 50), "no clear difference: 0.01 (-0.08 to 0.10) on 50 rows");
    assert.equal(verdictText(difference("auc", 0.01, -0.08, 0.1, null, false), names, 50), "secondary: no clear difference: 0.01 (-0.08 to 0.10) on 50 rows");
    assert.equal(verdictText({...difference("accuracy", 0, 0, 0, null), delta: null, low: null, high: null, n: 0}, names, 50), "not enough rows to compare (0 rows)");
    assert.equal(verdictText({...difference("auc", 0, 0, 0, null), delta: null, low: null, high: null, n: 1}, names, 50), "undefined on the 1 row both have (an AUC needs rows of both labels)");
});

test("verdicts: provisional while rows are missing, and Holm's correction with its level when there are several comparisons", () => {
    assert.equal(verdictText({...difference("accuracy", 0.06, 0.02, 0.1, 1), n: 49, provisional: true}, names, 200), "provisional, on 49 of 200 rows: B is better by 0.06 (0.02–0.10)");
    assert.equal(verdictText({...difference("accuracy", 0.01, -0.08, 0.1, null), n: 49, provisional: true}, names, 200), "provisional, on 49 of 200 rows: no clear difference: 0.01 (-0.08 to 0.10)");
    assert.equal(verdictText({...difference("accuracy", 0.06, 0.02, 0.1, 1), level: 1 - 0.05 / 3, holm: {comparisons: 3, pValue: 0.0123}}, names, 50),
        "B is better by 0.06 (0.02–0.10); after Holm's correction over 3 comparisons, p = 0.012, 98.3% interval");
});
