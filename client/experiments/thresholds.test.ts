// Gates (`--fail-under`) read against an experiment before anything is sent, and checked against a summary after:
// the grammar, every refusal with its reason, where a gate without a variant applies, ceilings, and errored cells.
import {test} from "node:test";
import assert from "node:assert/strict";
import {describeScope, evaluateThresholds, parseThreshold, ThresholdError} from "./thresholds.ts";
import type {Dataset, ExperimentSpec, ExperimentSummary, Variant} from "./types.ts";
import type {QuestionSet} from "../scoring/questions.ts";
import type {DecisionsQuestion} from "../../protocol/decisions/types.ts";

const dataset: Dataset = {
    id: "d", name: "tickets", columns: ["text", "urgent", "mood", "stars"], columnTypes: ["string", "string", "string", "number"],
    rows: [["late again", "yes", "sad", 1], ["thanks!", "no", "happy", 5]],
    labelColumns: ["urgent", "mood", "stars"], inputColumns: ["text"], createdAt: 0, updatedAt: 0
};
const chat: Variant = {
    name: "A", connection: {baseUrl: "http://127.0.0.1:8080"},
    version: {itemId: "p", itemName: "p", version: 1, note: "", createdAt: 0, prompt: {kind: "chat", endpoint: "chat", body: {messages: [{role: "user", content: "{{text}}"}]}}}
};
const decision = (name: string, questionSet: QuestionSet): Variant => ({
    name, connection: {baseUrl: "http://127.0.0.1:8080"},
    version: {itemId: "q", itemName: "q", version: 1, note: "", createdAt: 0, prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"}, questionSet}}
});
const urgent: DecisionsQuestion = {type: "predicate", name: "urgent", instructions: "Urgent?"};
const mood: DecisionsQuestion = {type: "choice", name: "mood", instructions: "Mood?", choices: [{value: "happy"}, {value: "sad"}]};
const stars: DecisionsQuestion = {type: "score", name: "stars", instructions: "Stars?", levels: [{label: "1"}, {label: "2"}, {label: "3"}, {label: "4"}, {label: "5"}]};
const spec: ExperimentSpec = {
    format: "svc-experiment", version: 1, id: "e", name: "e", dataset, sample: {kind: "all"}, seed: 1, createdAt: 0,
    variants: [chat, decision("B", {format: "decisions", questions: [urgent, mood]}), decision("C", {format: "decisions", questions: [urgent, stars]})],
    checks: [{kind: "regex", pattern: "^"}, {kind: "grader", name: "grounded", question: "Grounded?", template: "{{reply}}"}]
};
const parse = (text: string) => parseThreshold(text, spec, dataset);

function refused(text: string, reason: RegExp) {
    assert.throws(() => parse(text), (error: unknown) => error instanceof ThresholdError && reason.test(error.message), text);
}

test("the grammar: variant, metric and question; chat gates are pass:<check> and score:<grader>; error_rate on any variant", () => {
    assert.deepEqual(parse("B:accuracy@mood=0.8"), {text: "B:accuracy@mood=0.8", variant: 1, metric: "accuracy", question: "mood", value: 0.8, scope: [{variant: 1, questions: ["mood"]}]});
    assert.deepEqual(parse("pass:regex=0.9").scope, [{variant: 0, questions: null}]);
    assert.equal(parse("A:score:grounded=0.7").metric, "score:grounded");
    assert.equal(parse("A:pass:grounded=0.7").variant, 0);
    assert.deepEqual(parse("error_rate=0.05").scope.map((item) => item.variant), [0, 1, 2]);
    assert.deepEqual(parse("C:error_rate=0").scope, [{variant: 2, questions: null}]);
    // A gate without a variant applies to the variants that have its metric, on the questions that have it.
    assert.equal(describeScope(parse("accuracy=0.8"), spec), "accuracy=0.8 applies to B (urgent, mood), C (urgent, stars)");
    assert.equal(describeScope(parse("auc=0.7"), spec), "auc=0.7 applies to B (urgent), C (urgent)");
    assert.equal(describeScope(parse("mae=0.5"), spec), "mae=0.5 applies to C (stars)");
    assert.equal(describeScope(parse("accuracy@urgent=0.8"), spec), "accuracy@urgent=0.8 applies to B, C");
    assert.equal(describeScope(parse("pass_rate=0.9"), spec), "pass_rate=0.9 applies to A");
});

test("refused with the reason: ambiguous check:, a metric the variant or question lacks, a value out of range, an unknown variant", () => {
    refused("check:grounded=0.7", /check:grounded could mean two numbers: write pass:grounded \(the share of rows passing it, errored rows counted as failures\) or score:grounded \(its mean P\(yes\), grader checks only\)/);
    refused("A:check:regex=1", /write pass:regex .* or score:regex \(its mean P\(yes\), grader checks only, which regex is not\)/);
    refused("score:regex=0.5", /score:regex is a grader check's mean P\(yes\), and regex is not a grader: write pass:regex/);
    refused("pass:nope=1", /the experiment has no check "nope" \(checks: regex, grounded\)/);
    refused("B:pass_rate=0.9", /B is a question-set \(decision\) variant, and pass_rate is measured on chat variants/);
    refused("A:accuracy=0.8", /A is a chat variant, and accuracy is measured per question on question-set \(decision\) variants/);
    refused("auc@mood=0.7", /mood is a choice question in B, and auc exists for yes\/no questions only/);
    refused("B:mae=0.5", /B has no score question with a label column, so no mae/);
    refused("mae@urgent=0.5", /urgent is a yes\/no question in B, and mae exists for score questions only; urgent is a yes\/no question in C/);
    refused("B:accuracy@stars=0.5", /B has no question "stars" \(questions: urgent, mood\)/);
    refused("accuracy@topic=0.5", /no decision variant has a question "topic"/);
    refused("accuracy=1.5", /1\.5 is outside accuracy's range \(0 to 1\), so the gate could never be met/);
    refused("error_rate=-0.1", /-0\.1 is outside error_rate's range \(0 to 1\), so the gate could never be met/);
    refused("ece=2", /2 is outside ece's range \(0 to 1\), so the gate could never be missed/);
    refused("log_loss=-1", /outside log_loss's range \(0 or more\)/);
    refused("brier=1.5", /outside brier's range \(0 to 1\)/);
    refused("Z:accuracy=0.8", /no variant "Z" \(variants: A, B, C\)/);
    refused("Z:pass:regex=0.8", /no variant "Z"/);
    refused("speed=1", /unknown metric "speed"/);
    refused("pass_rate@urgent=1", /pass_rate takes no @question/);
    refused("error_rate@urgent=0", /error_rate takes no @question/);
    refused("accuracy", /write metric=value/);
    refused("ece=x", /"x" is not a number/);
    // No variant has it: chat metrics on an experiment of decision variants only.
    assert.throws(() => parseThreshold("pass_rate=0.9", {...spec, variants: spec.variants.slice(1)}, dataset),
        /pass_rate=0\.9: no variant has it: B is a question-set \(decision\) variant, and pass_rate is measured on chat variants; C is a question-set/);
    // A question whose label column the dataset lacks has no metrics to gate.
    assert.throws(() => parseThreshold("B:accuracy@mood=0.5", spec, {...dataset, columns: ["text", "urgent", "feeling", "stars"], labelColumns: ["urgent", "feeling", "stars"]}),
        /mood has no label column in the dataset, so B's metrics for it are not computed/);
});

test("checked against the summary: floors and ceilings, every question in scope, and on how many rows each number stands", () => {
    const summary = {rows: 4, differences: [], disagreements: [], variants: [
        {variant: 0, name: "A", total: 4, errors: 0, metrics: [{metric: "pass_rate", calibrated: false, value: 1, n: 4}, {metric: "score:grounded", calibrated: false, value: 0.9, n: 4}]},
        {variant: 1, name: "B", total: 4, errors: 1, metrics: [
            {metric: "ece", question: "urgent", calibrated: false, value: 0.12, n: 3}, {metric: "accuracy", question: "urgent", calibrated: false, value: 0.75, n: 3},
            {metric: "accuracy", question: "urgent", calibrated: true, value: 0.2, n: 3}, {metric: "accuracy", question: "mood", calibrated: false, value: 0.5, n: 3}]},
        {variant: 2, name: "C", total: 4, errors: 0, metrics: [{metric: "accuracy", question: "urgent", calibrated: false, value: 1, n: 4}]}
    ]} as unknown as ExperimentSummary;
    const results = evaluateThresholds(["B:ece@urgent=0.1", "B:ece@urgent=0.2", "accuracy@urgent=0.7", "accuracy=0.7", "score:grounded=0.95", "C:error_rate=0"].map(parse), summary);
    assert.deepEqual(results.map((result) => result.ok), [false, true, true, false, false, true, false]);
    assert.match(results[0].message, /B:ece@urgent=0\.1: missed, at most 0\.1 wanted \(B urgent · ECE 0\.120 on 3 of 4 rows\)/);
    assert.match(results[2].message, /accuracy@urgent=0\.7: met \(B urgent · Accuracy 0\.750 on 3 of 4 rows, C urgent · Accuracy 1\.000\)/);
    // Without a question: every question in scope, and one the run did not measure (C's stars) fails.
    assert.match(results[3].message, /accuracy=0\.7: missed, at least 0\.7 wanted \(B mood · Accuracy 0\.500 on 3 of 4 rows, C stars not measured\)/);
    assert.match(results[4].message, /score:grounded=0\.95: missed, at least 0\.95 wanted \(A score:grounded 0\.900\)/);
    assert.match(results[5].message, /C:error_rate=0: met \(C error rate 0\.000: 0 of 4 cells errored\)/);
    // The variants no error_rate gate covers get error_rate=0: B's errored cell fails the run.
    assert.match(results[6].message, /no errored cells \(implied by --fail-under unless an error_rate gate is given\): missed, at most 0 wanted \(B error rate 0\.250: 1 of 4 cells errored\); allow some with --fail-under error_rate=<max>/);

    const allowed = evaluateThresholds(["pass_rate=1", "error_rate=0.25"].map(parse), summary);
    assert.deepEqual(allowed.map((result) => [result.ok, result.message]), [
        [true, "pass_rate=1: met (A Pass rate 1.000)"],
        [true, "error_rate=0.25: met (A error rate 0.000: 0 of 4 cells errored, B error rate 0.250: 1 of 4 cells errored, C error rate 0.000: 0 of 4 cells errored)"]
    ]);
    assert.deepEqual(evaluateThresholds([], summary), [], "no gate, no implied one");
});

test("--fail-under-bound: rates only, read on their 95% Wilson interval (the lower end of a floor, the upper end of the error rate)", () => {
    const bound = (text: string) => parseThreshold(text, spec, dataset, true);
    assert.equal(bound("A:pass_rate=0.8").bound, true);
    assert.equal(parse("A:pass_rate=0.8").bound, undefined);
    assert.throws(() => bound("B:ece@urgent=0.1"), (error: unknown) => error instanceof ThresholdError &&
        /^--fail-under-bound B:ece@urgent=0\.1: ece is not a rate, so it has no Wilson interval to bound/.test(error.message));
    assert.throws(() => bound("score:grounded=0.5"), /--fail-under-bound score:grounded=0\.5: score:grounded is not a rate/);
    // A grammar error is said under the flag it came with.
    assert.throws(() => bound("accuracy"), /--fail-under-bound accuracy: write metric=value/);
    // A passes 36 of 40 rows: 0.900, whose Wilson interval is 0.769482247724777–0.9604204713173935 (scipy
    // binomtest(36, 40).proportion_ci(method="wilson")); B errored on 1 of 4 cells: 0.04558726080970055–0.6993581574175981.
    const summary = {rows: 40, differences: [], disagreements: [], variants: [
        {variant: 0, name: "A", total: 40, errors: 0, metrics: [{metric: "pass_rate", calibrated: false, value: 0.9, n: 40, interval: {low: 0.769482247724777, high: 0.9604204713173935}}]},
        {variant: 1, name: "B", total: 4, errors: 1, metrics: [{metric: "accuracy", question: "urgent", calibrated: false, value: 0.75, n: 3}]},
        {variant: 2, name: "C", total: 4, errors: 0, metrics: []}
    ]} as unknown as ExperimentSummary;
    const results = evaluateThresholds([parse("A:pass_rate=0.8"), bound("A:pass_rate=0.8"), bound("A:pass_rate=0.75"), bound("B:error_rate=0.7"), bound("B:error_rate=0.6"), bound("B:accuracy@urgent=0.5")], summary);
    assert.deepEqual(results.slice(0, 6).map((result) => result.ok), [true, false, true, true, false, false]);
    assert.equal(results[1].message, "A:pass_rate=0.8: missed, a 95% lower bound of at least 0.8 wanted (A Pass rate 0.900, 95% lower bound 0.769)");
    assert.equal(results[2].message, "A:pass_rate=0.75: met (A Pass rate 0.900, 95% lower bound 0.769)");
    assert.equal(results[3].message, "B:error_rate=0.7: met (B error rate 0.250, 95% upper bound 0.699: 1 of 4 cells errored)");
    assert.match(results[4].message, /B:error_rate=0\.6: missed, a 95% upper bound of at most 0\.6 wanted/);
    // A rate without an interval (none computed) cannot be read on it, so its bound gate fails.
    assert.match(results[5].message, /B:accuracy@urgent=0\.5: missed, a 95% lower bound of at least 0\.5 wanted \(B urgent · Accuracy 0\.750, 95% lower bound – on 3 of 4 rows\)/);
});
