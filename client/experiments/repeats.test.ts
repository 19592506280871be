// Repeats against values computed independently: pass@k and pass^k against scipy.special.comb, the noise split and
// a summary with repeats against numpy (each value's computation is in the comment beside it), and by simulation:
// repeats narrow the interval as the noise split predicts.
import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../test/support/seededRandom.ts";
import {noiseSplit, passAtK, passHatK} from "./repeatStats.ts";
import {summarizeExperiment} from "./summary.ts";
import {checkExperimentInput} from "./dataset.ts";
import {repeatRequest} from "./repeats.ts";
import {chatVariant, decisionVariant, experiment, urgentSet} from "./testExperiment.ts";
import type {CellResult, Dataset, ExperimentSpec} from "./types.ts";

const close = (actual: number, expected: number, tolerance = 1e-9) => assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not ${expected} ± ${tolerance}`);

test("pass@k and pass^k are Chen's and Yao's unbiased estimators (scipy.special.comb)", () => {
    close(passAtK(10, 3, 5), 0.9166666666666666); // 1 - comb(7,5)/comb(10,5)
    close(passHatK(10, 3, 2), 0.06666666666666667); // comb(3,2)/comb(10,2)
    close(passAtK(3, 1, 1), 0.33333333333333337); // 1 - comb(2,1)/comb(3,1): pass@1 is the share passed
    assert.equal(passAtK(4, 0, 2), 0);
    assert.equal(passHatK(4, 4, 4), 1);
    assert.equal(passHatK(4, 3, 4), 0);
});

test("the noise split of a worked example: within-row, between-row variance and the narrowing (numpy)", () => {
    // v = [[1,1,0],[0,0,0],[1,1,1],[1,0,0],[0,1,1]]; within = v.var(1, ddof=1).mean(); between = v.mean(1).var(ddof=1) - within/3
    const split = noiseSplit("pass_rate", [[1, 1, 0], [0, 0, 0], [1, 1, 1], [1, 0, 0], [0, 1, 1]], 3)!;
    close(split.mean, 0.5333333333333333);
    close(split.within, 0.2);
    close(split.between, 0.07777777777777779);
    close(split.standardError, 0.16996731711975951); // sqrt((between + within/3)/5)
    close(split.standardErrorOnce, 0.23570226039551584); // sqrt((between + within)/5)
    close(split.narrowing, 0.7211102550927979);
});

/** A chat variant's cells: `passes[row][repeat]` 1 or 0 on one check. */
function chatCells(variant: number, passes: ReadonlyArray<readonly number[]>): CellResult[] {
    return passes.flatMap((answers, rowIndex) => answers.map((pass, repeat): CellResult => ({
        rowIndex, variant, ...(repeat === 0 ? {} : {repeat}), ok: true, request: {}, reply: pass ? "yes" : "no",
        checks: [{name: "correct", pass: pass === 1, score: pass}], latencyMs: 10, attempts: 1, completedAt: 0
    })));
}

function repeatedExperiment(repeats: number): ExperimentSpec {
    const variant = (name: string) => ({...chatVariant(name, "m"), params: {temperature: 1}});
    return {...experiment([variant("A"), variant("B")]), checks: [{kind: "equals", column: "answer"}], repeats};
}

test("a summary with repeats: rates over answers, intervals and tests clustered by row, the verdict in rows × repeats, one disagreement per row (numpy)", () => {
    const a = [[1, 1, 0], [0, 0, 0], [1, 1, 1], [1, 0, 0], [0, 1, 1], [1, 1, 1]];
    const b = [[1, 1, 1], [0, 1, 0], [1, 1, 1], [1, 1, 0], [1, 1, 1], [1, 1, 1]];
    const dataset = {columns: ["question", "answer"], labelColumns: ["answer"], rows: a.map((_row, index) => [`q${index}`, "yes"])};
    const summary = summarizeExperiment(repeatedExperiment(3), dataset, [...chatCells(0, a), ...chatCells(1, b)]);
    assert.equal(summary.rows, 6);
    assert.equal(summary.repeats, 3);
    assert.equal(summary.clustering, undefined);
    const rateA = summary.variants[0].metrics.find((metric) => metric.metric === "pass_rate")!;
    assert.equal(rateA.n, 18);
    close(rateA.value!, 0.6111111111111112);
    // Wilson on n / design effect, the design effect Σ_row (Σ residuals)² / Σ residuals² = 1.5974 (numpy)
    close(rateA.interval!.low, 0.3354387878049897, 1e-9);
    close(rateA.interval!.high, 0.8302863096627168, 1e-9);
    assert.equal(rateA.designEffect, undefined, "with repeats alone the noise split, not a design effect, is shown");
    const primary = summary.differences.find((difference) => difference.primary)!;
    assert.equal(primary.method, "cluster");
    assert.equal(primary.repeats, 3);
    close(primary.delta!, 0.2222222222222222);
    // d = B − A per answer; SE = sqrt(Σ_row (Σ_j (d − δ))² · 6/5) / n over the 6 rows (CR1); p = 2·scipy.stats.t.cdf(−|δ|/SE, 5),
    // the interval δ ± t.ppf(0.975, 5)·SE: with six rows the t on 5 degrees of freedom, not the normal.
    close(primary.clustered!.standardError, 0.07027283689263066);
    close(primary.clustered!.pValue, 0.02503101581845296, 1e-12);
    close(primary.low!, 0.04158014416739236, 1e-9);
    close(primary.high!, 0.40286430027705206, 1e-9);
    assert.match(primary.verdict, /^B is better by 0\.22 \(0\.04–0\.40\)/);
    const other = summary.differences.find((difference) => !difference.primary && difference.better === null);
    if (other !== undefined) assert.match(other.verdict, /6 rows × 3 repeats/);
    assert.ok(summary.warnings.some((warning) => /6 rows were each asked 3 times/.test(warning)));
    const stats = summary.variants[0].repeats!;
    assert.deepEqual(stats.rowsByPasses, [1, 1, 2, 2]);
    const atThree = stats.passAtK.find((entry) => entry.k === 3)!;
    close(atThree.passAtK, 0.8333333333333334); // np.mean(c > 0)
    close(atThree.passHatK, 0.3333333333333333); // np.mean(c == 3)
    close(stats.passAtK.find((entry) => entry.k === 2)!.passAtK, 0.7777777777777778); // mean of 1 - comb(3-c,2)/comb(3,2)
    // One disagreement per row, each variant's repeats as one cell with its spread.
    assert.ok(summary.disagreements.every((entry, index, all) => all.findIndex((other) => other.rowIndex === entry.rowIndex) === index));
    const row1 = summary.disagreements.find((entry) => entry.rowIndex === 1)!;
    assert.match(row1.cells[0].summary, /^0\/3 repeats passed/);
    assert.match(row1.cells[1].summary, /^1\/3 repeats passed/);
});

test("repeats are refused for question sets and at temperature 0, and each chat repeat has its own seed", () => {
    const dataset: Dataset = {id: "d", name: "d", columns: ["text", "urgent"], columnTypes: ["string", "string"], rows: [["a", "yes"], ["b", "no"]], labelColumns: ["urgent"], inputColumns: ["text"], createdAt: 0, updatedAt: 0};
    const decision = {...experiment([decisionVariant("A", urgentSet)]), repeats: 3};
    const problems = checkExperimentInput(decision, dataset, [0, 1]).errors;
    assert.ok(problems.some((problem) => problem.path === "variants[0]" && /read from the model's logits/.test(problem.message)), JSON.stringify(problems));
    const greedy = {...experiment([{...chatVariant("A", "m"), version: {...chatVariant("A", "m").version, prompt: {kind: "chat" as const, endpoint: "chat" as const, body: {messages: [{role: "user", content: "{{text}}"}]}}}}]), repeats: 2};
    assert.ok(checkExperimentInput(greedy, dataset, [0, 1]).errors.some((problem) => problem.path === "variants[0].params.temperature"));
    assert.deepEqual(checkExperimentInput({...greedy, repeats: 1}, dataset, [0, 1]).errors, []);
    assert.deepEqual(repeatRequest({messages: [], seed: 40}, "chat", 2, 3, 7), {messages: [], seed: 42});
    assert.deepEqual(repeatRequest({messages: []}, "chat", 0, 3, 7), {messages: [], seed: 7});
    assert.deepEqual(repeatRequest({input: "x"}, "responses", 1, 3, 7), {input: "x"}, "Responses has no seed field");
    assert.deepEqual(repeatRequest({messages: []}, "chat", 0, 1, 7), {messages: []}, "without repeats the body is sent as compiled");
});

/** Draws an experiment of `rows` rows whose true pass chances are uniform, each asked `repeats` times. */
function simulated(random: () => number, rows: number, repeats: number): number[][] {
    return Array.from({length: rows}, () => {
        const chance = random();
        return Array.from({length: repeats}, () => random() < chance ? 1 : 0);
    });
}

test("simulation: repeats narrow the interval as the noise split predicts", () => {
    // Uniform pass chances: data noise Var(p) = 1/12, prediction noise E[p(1 − p)] = 1/6. On 100 rows the mean's
    // standard error is √((1/12 + 1/6)/100) = 0.0500 with one answer per row and √((1/12 + 1/24)/100) = 0.0354 with 4.
    const random = seededRandom(11);
    const rows = 100, runs = 400;
    const dataset = {columns: ["question", "answer"], labelColumns: ["answer"], rows: Array.from({length: rows}, (_unused, index) => [`q${index}`, "yes"])};
    const sd = (values: number[]) => {
        const mean = values.reduce((x, y) => x + y, 0) / values.length;
        return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
    };
    const measure = (repeats: number) => {
        const means: number[] = [], widths: number[] = [], predicted: number[] = [], once: number[] = [];
        for (let run = 0; run < runs; run++) {
            const passes = simulated(random, rows, repeats);
            const summary = summarizeExperiment({...repeatedExperiment(repeats), variants: [repeatedExperiment(repeats).variants[0]]}, dataset, chatCells(0, passes));
            const rate = summary.variants[0].metrics.find((metric) => metric.metric === "pass_rate")!;
            means.push(rate.value!);
            widths.push(rate.interval!.high - rate.interval!.low);
            const split = summary.variants[0].repeats?.noise.find((entry) => entry.metric === "pass_rate");
            if (split !== undefined) {
                predicted.push(split.standardError);
                once.push(split.standardErrorOnce);
            }
        }
        const mean = (values: number[]) => values.reduce((x, y) => x + y, 0) / values.length;
        return {sd: sd(means), width: mean(widths), predicted: mean(predicted), once: mean(once)};
    };
    const single = measure(1), four = measure(4);
    // The spread of the mean over simulated experiments matches the theory, and the noise split estimates it.
    close(single.sd, 0.05, 0.005);
    close(four.sd, 0.0354, 0.0035);
    close(four.predicted, four.sd, 0.0035);
    close(four.once, single.sd, 0.005);
    // The interval narrowed by the predicted factor √((1/12 + 1/24)/(1/4)) = 0.707, as the split estimated it.
    const narrowing = four.width / single.width;
    close(narrowing, four.predicted / four.once, 0.07);
    close(narrowing, Math.sqrt((1 / 12 + 1 / 24) / 0.25), 0.07);
    console.log(`repeats simulation, ${runs} experiments of ${rows} rows: SD of the mean ${single.sd.toFixed(4)} (1 answer) vs ${four.sd.toFixed(4)} (4 answers); ` +
        `noise split predicted ${four.predicted.toFixed(4)}, and ${four.once.toFixed(4)} for one answer; interval width ratio ${narrowing.toFixed(3)} vs predicted ${(four.predicted / four.once).toFixed(3)}`);
});

test("simulation: under the null, two equal variants asked three times on 30 rows get a clear verdict about 5% of the time", () => {
    // Each row's pass chance p ~ U(0, 1) is shared by both variants, each answer drawn apart: no difference, but
    // answers of one row alike. The clustered test on t with 29 degrees of freedom should reject near its 5%.
    const random = seededRandom(29);
    const rows = 30, runs = 1000;
    const dataset = {columns: ["question", "answer"], labelColumns: ["answer"], rows: Array.from({length: rows}, (_unused, index) => [`q${index}`, "yes"])};
    let clear = 0;
    for (let run = 0; run < runs; run++) {
        const chances = Array.from({length: rows}, () => random());
        const draw = () => chances.map((chance) => [0, 1, 2].map(() => random() < chance ? 1 : 0));
        const summary = summarizeExperiment(repeatedExperiment(3), dataset, [...chatCells(0, draw()), ...chatCells(1, draw())]);
        if (summary.differences.find((difference) => difference.primary)?.better != null) clear++;
    }
    const rate = clear / runs;
    console.log(`repeats null simulation: ${clear} of ${runs} experiments (${(rate * 100).toFixed(1)}%) called a difference`);
    assert.ok(rate > 0.025 && rate < 0.075, `${rate}`);
});
