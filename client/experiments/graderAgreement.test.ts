import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../base/common/seededRandom.ts";
import {cohenKappa, graderAgreements, humanVerdict, measureAgreement, roganGladen, type GradedRow} from "./graderAgreement.ts";
import {wilsonInterval} from "./stats.ts";
import {summarizeExperiment} from "./summary.ts";
import {formatSummary} from "./cli/formatSummary.ts";
import {renderExperimentReport} from "./report.ts";
import {parseExperimentSpec, serializeExperimentSpec} from "./experimentFile.ts";
import {checkProblems} from "./checks.ts";
import {chatVariant, experiment} from "./testExperiment.ts";
import type {CellResult, Check, ExperimentSpec} from "./types.ts";

const close = (actual: number | null | undefined, expected: number, tolerance = 1e-9, message = "") =>
    assert.ok(actual != null && Math.abs(actual - expected) <= tolerance, `${message} expected ${expected}, got ${actual}`);

test("Cohen's kappa reproduces the worked example of 50 proposals read by two readers (20 both yes, 15 both no, 5 and 10 split): 0.4", () => {
    // Cohen (1960)'s statistic on the example in Wikipedia's "Cohen's kappa": p_o = 0.7, p_e = 0.5, κ = 0.4.
    close(cohenKappa(20, 5, 10, 15), 0.4, 1e-12);
    assert.equal(cohenKappa(10, 0, 0, 0), null, "one rater always yes and the other too: chance agreement is 1");
});

// Thirty graded replies, twenty with a person's verdict. Threshold 0.5: the grader passes a score of 0.5 or more.
const scores = [0.91, 0.84, 0.12, 0.67, 0.45, 0.08, 0.77, 0.95, 0.33, 0.58, 0.22, 0.71, 0.49, 0.88, 0.03, 0.62, 0.41, 0.97, 0.15, 0.55,
    0.8, 0.3, 0.6, 0.7, 0.2, 0.9, 0.1, 0.65, 0.35, 0.52];
const humans = [1, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1];
const rows: GradedRow[] = scores.map((score, index) => ({score, pass: score >= 0.5, human: index < humans.length ? humans[index] === 1 : null}));

test("sensitivity, specificity, kappa, ECE and the corrected pass rate against values computed independently with numpy", () => {
    // numpy on the same rows (tp 9, fn 2, fp 2, tn 7): Se = 9/11, Sp = 7/9; κ by the equivalent form
    // 2(ad − bc)/((a + b)(b + d) + (a + c)(c + d)) = 0.5959595959595959; ECE over 10 bins of the score = 0.1835;
    // p̂ = 17/30; Rogan–Gladen 0.5779661016949154; its 95% interval from the delta method, gᵀΣg with g a numerical
    // gradient of (p + Sp − 1)/(Se + Sp − 1) and Σ the covariance of (p̂, Se, Sp) (binomial variances; the labelled
    // rows among the 30, Cov(p̂, Se) = Se(1 − Se)/30, Cov(p̂, Sp) = −Sp(1 − Sp)/30), with scipy.stats.norm.ppf(0.975):
    // 0.33343669001177056–0.8224955133780602.
    const stats = measureAgreement(rows);
    assert.equal(stats.labelled, 20);
    close(stats.sensitivity.value, 9 / 11);
    assert.equal(stats.sensitivity.n, 11);
    close(stats.specificity.value, 7 / 9);
    assert.equal(stats.specificity.n, 9);
    assert.deepEqual(stats.sensitivity.interval, wilsonInterval(9, 11));
    close(stats.kappa.value, 0.5959595959595959, 1e-12);
    assert.equal(stats.kappa.n, 20);
    close(stats.ece.value, 0.1835, 1e-12);
    close(stats.observed.value, 17 / 30);
    assert.equal(stats.observed.n, 30);
    assert.ok(stats.corrected !== null);
    close(stats.corrected.value, 0.5779661016949154, 1e-12);
    close(stats.corrected.low, 0.33343669001177056, 1e-7);
    close(stats.corrected.high, 0.8224955133780602, 1e-7);
    assert.equal(stats.corrected.n, 30);
});

test("with every graded reply labelled, the corrected rate is the people's share with its own binomial interval", () => {
    const all = rows.slice(0, humans.length);
    const stats = measureAgreement(all);
    const share = 11 / 20, half = 1.959963984540054 * Math.sqrt(share * (1 - share) / 20);
    close(stats.corrected?.value, share, 1e-12);
    close(stats.corrected?.low, share - half, 1e-9);
    close(stats.corrected?.high, share + half, 1e-9);
});

test("the corrected rate is clipped to 0..1 and undefined for a grader no better than chance", () => {
    assert.equal(roganGladen(0.5, 100, 0.5, 50, 0.5, 50), null, "Se + Sp = 1");
    assert.equal(roganGladen(0.5, 100, 0.4, 50, 0.4, 50), null, "Se + Sp < 1");
    // p̂ below the false-pass rate 1 − Sp: the raw estimate is negative, shown as 0.
    assert.equal(roganGladen(0.05, 100, 0.9, 50, 0.9, 50)?.value, 0);
    assert.equal(roganGladen(0.98, 100, 0.9, 50, 0.9, 50)?.value, 1);
});

test("a person's verdict is read from yes/no words, a choice grader's labels and a score grader's levels", () => {
    const predicate: Extract<Check, {kind: "grader"}> = {kind: "grader", name: "polite", question: "Is it polite?", template: "{{reply}}"};
    assert.equal(humanVerdict(predicate, "Yes"), true);
    assert.equal(humanVerdict(predicate, " fail "), false);
    assert.equal(humanVerdict(predicate, 1), true);
    assert.equal(humanVerdict(predicate, false), false);
    assert.equal(humanVerdict(predicate, ""), null);
    assert.equal(humanVerdict(predicate, "maybe"), null);
    const choice = {...predicate, labels: ["good", "ok", "bad"], passing: ["good", "ok"]};
    assert.equal(humanVerdict(choice, "ok"), true);
    assert.equal(humanVerdict(choice, "bad"), false);
    const score = {...predicate, levels: [1, 2, 3, 4, 5], threshold: 0.75};
    assert.equal(humanVerdict(score, 4), true, "(4 − 1)/(5 − 1) = 0.75 reaches the threshold");
    assert.equal(humanVerdict(score, "3"), false);
});

/** A chat experiment of one variant whose grader "polite" has the scores above, the people's verdicts in column "human". */
function labelledExperiment(humanLabelColumn?: string): {spec: ExperimentSpec, dataset: {columns: string[], labelColumns: string[], rows: Array<Array<string | null>>}, cells: CellResult[]} {
    const grader: Check = {kind: "grader", name: "polite", question: "Is the reply polite?", template: "Reply: {{reply}}", ...(humanLabelColumn === undefined ? {} : {humanLabelColumn})};
    const spec = {...experiment([chatVariant("A", "m")]), checks: [grader]};
    const dataset = {columns: ["question", "human"], labelColumns: ["human"], rows: scores.map((_score, index) => [`q${index}`, index < humans.length ? (humans[index] === 1 ? "yes" : "no") : null])};
    const cells: CellResult[] = scores.map((score, rowIndex) => ({rowIndex, variant: 0, ok: true, request: {}, reply: `reply ${rowIndex}`,
        checks: [{name: "polite", pass: score >= 0.5, score}], latencyMs: 10, attempts: 1, completedAt: 0}));
    return {spec, dataset, cells};
}

test("the summary, the CLI and the HTML report show a grader against the human labels, and nothing without them", () => {
    const {spec, dataset, cells} = labelledExperiment("human");
    const summary = summarizeExperiment(spec, dataset, cells);
    const [agreement] = summary.variants[0].graders ?? [];
    assert.equal(agreement?.check, "polite");
    assert.equal(agreement.column, "human");
    assert.deepEqual(agreement, graderAgreements(spec, dataset, cells)[0]);
    close(agreement.corrected?.value, 0.5779661016949154, 1e-12);
    const text = formatSummary(spec, summary);
    assert.match(text, /Corrected pass rate/);
    assert.match(text, /polite vs human \(20 labelled\)/);
    assert.match(text, /0\.818 \(0\.523–0\.949\) n=11/, "sensitivity 9/11 with its Wilson interval and n");
    assert.match(text, /0\.578 \(0\.333–0\.822\) n=30/, "the corrected rate with its interval and n");
    const html = renderExperimentReport(spec, summary, {generatedAt: new Date(0)});
    assert.match(html, /<h2>Graders against human labels<\/h2>/);
    assert.match(html, /title="Agreement of the grader&#39;s pass \/ fail|title="Agreement of the grader&#x27;s pass \/ fail|title="Agreement of the grader's pass \/ fail/);

    const plain = labelledExperiment();
    const without = summarizeExperiment(plain.spec, plain.dataset, plain.cells);
    assert.equal(without.variants[0].graders, undefined);
    assert.doesNotMatch(formatSummary(plain.spec, without), /Corrected/);
    assert.doesNotMatch(renderExperimentReport(plain.spec, without), /Graders against human labels/);
});

test("a human label column the dataset does not have is a problem before anything is sent", () => {
    const {spec} = labelledExperiment("verdict");
    const [problem] = checkProblems(spec.checks, ["question", "human"]);
    assert.equal(problem?.path, "checks[0].humanLabelColumn");
    assert.deepEqual(checkProblems(labelledExperiment("human").spec.checks, ["question", "human"]), []);
});

test("an experiment file keeps a grader's humanLabelColumn", () => {
    const {spec} = labelledExperiment("human");
    const read = parseExperimentSpec(serializeExperimentSpec({...spec, dataset: {name: "d", columns: ["question", "human"], labelColumns: ["human"], rows: [["q", "yes"]]} as unknown as ExperimentSpec["dataset"]}));
    assert.deepEqual(read.checks[0], spec.checks[0]);
});

test("simulated graders: the corrected rate's interval covers the true rate about 95% of the time, the raw rate is biased", () => {
    // 400 experiments of 1,500 replies, 30% truly passing; the grader passes a passing reply with probability 0.85
    // (Se) and a failing one with 0.10 (1 − Sp), so it shows 0.3·0.85 + 0.7·0.10 = 0.325. A person labels the first 300.
    const random = seededRandom(20261128);
    const truth = 0.3, sensitivity = 0.85, specificity = 0.9, experiments = 400, replies = 1500, labelled = 300;
    let covered = 0, rawCovered = 0, rawSum = 0, correctedSum = 0;
    for (let run = 0; run < experiments; run++) {
        const graded: GradedRow[] = [];
        for (let index = 0; index < replies; index++) {
            const passes = random() < truth;
            const pass = random() < (passes ? sensitivity : 1 - specificity);
            graded.push({score: pass ? 0.5 + random() / 2 : random() / 2, pass, human: index < labelled ? passes : null});
        }
        const stats = measureAgreement(graded);
        const corrected = stats.corrected!;
        if (corrected.low <= truth && truth <= corrected.high) covered++;
        if (stats.observed.interval!.low <= truth && truth <= stats.observed.interval!.high) rawCovered++;
        rawSum += stats.observed.value!;
        correctedSum += corrected.value;
    }
    const coverage = covered / experiments;
    console.log(`corrected grader rate, ${experiments} runs: interval coverage ${coverage}, raw interval coverage ${rawCovered / experiments}; mean raw ${(rawSum / experiments).toFixed(4)}, mean corrected ${(correctedSum / experiments).toFixed(4)} (truth 0.3)`);
    // 400 runs: the coverage's own standard error at 95% is about 0.011; ±0.03 is nearly 3 of them.
    assert.ok(coverage >= 0.92 && coverage <= 0.98, `corrected coverage ${coverage}`);
    assert.ok(rawCovered / experiments < 0.7, `the raw rate's Wilson interval covers the truth only ${rawCovered / experiments} of the time`);
    close(rawSum / experiments, 0.325, 0.004, "the raw rate is biased towards 0.325");
    close(correctedSum / experiments, truth, 0.004, "the corrected rate is unbiased");
});
