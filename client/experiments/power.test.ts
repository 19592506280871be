import {test} from "node:test";
import assert from "node:assert/strict";
import {seededRandom} from "../../base/common/seededRandom.ts";
import {normalQuantile} from "./normal.ts";
import {assumedDiscordance, comparesVariants, describeDetectable, detectableFromInterval, mcnemarDetectable, mcnemarPower, mcnemarRowsNeeded, measuredDiscordance, pairedDetectable, pairedRowsNeeded} from "./power.ts";
import {summarizeExperiment} from "./summary.ts";
import {chatVariant, decisionVariant, experiment, predicateCell, urgentSet} from "./testExperiment.ts";
import {mcnemarExact} from "./stats.ts";

const close = (actual: number | null, expected: number, tolerance: number, message = "") =>
    assert.ok(actual !== null && Math.abs(actual - expected) <= tolerance, `${message} expected ${expected} ± ${tolerance}, got ${actual}`);

test("Connor's closed forms for McNemar's test, against values computed with scipy", () => {
    // Reference: z = scipy.stats.norm.ppf; n = ceil((z(0.975)·√ψ + z(0.8)·√(ψ − δ²))² / δ²) and
    // power = norm.cdf((√n·δ − z(0.975)·√ψ) / √(ψ − δ²)).
    assert.equal(mcnemarRowsNeeded(0.1, 0.2), 155);
    assert.equal(mcnemarRowsNeeded(0.1, 0.3), 234);
    assert.equal(mcnemarRowsNeeded(0.05, 0.1), 312);
    assert.equal(mcnemarRowsNeeded(-0.05, 0.2), 626, "the direction does not matter");
    close(mcnemarPower(155, 0.1, 0.2), 0.8010345247643904, 1e-12);
    close(mcnemarPower(489, 0.08, 0.4), 0.8006530839367497, 1e-12);
    // A difference larger than the discordance cannot happen, nor can one be found with no discordance.
    assert.equal(mcnemarRowsNeeded(0.3, 0.2), null);
    assert.equal(mcnemarDetectable(100, 0), null);
    // The detectable difference inverts the power: at n = 155 and ψ = 0.2 the power at it is 80%, a hair below 0.1.
    const detectable = mcnemarDetectable(155, 0.2)!;
    close(mcnemarPower(155, detectable, 0.2), 0.8, 1e-9);
    assert.ok(detectable < 0.1 && detectable > 0.099, `${detectable}`);
    // Too few rows: even every discordant row going one way (δ = ψ = 0.2 of 10 rows) is not found 80% of the time.
    assert.equal(mcnemarDetectable(10, 0.2), null);
    // At α = 0.01 more rows are needed: z(0.995) = 2.5758293035489004 (scipy).
    assert.equal(mcnemarRowsNeeded(0.1, 0.2, {alpha: 0.01}), Math.ceil((2.5758293035489004 * Math.sqrt(0.2) + normalQuantile(0.8) * Math.sqrt(0.2 - 0.01)) ** 2 / 0.01));
});

test("the paired normal approximation for continuous metrics, against values computed with scipy", () => {
    // (norm.ppf(0.975) + norm.ppf(0.8))² = 7.848879734349086; σ_d = 0.3, δ = 0.05: 7.8489 × 0.09 / 0.0025 = 282.56.
    assert.equal(pairedRowsNeeded(0.05, 0.3), 283);
    close(pairedDetectable(100, 0.3), Math.sqrt(7.848879734349086) * 0.03, 1e-12);
    // An interval at 95% of width 2 × 1.96 × SE gives SE back, so the detectable difference is 2.8016 × SE.
    close(detectableFromInterval(-0.0392, 0.0392, 0.95), Math.sqrt(7.848879734349086) * 0.0392 / 1.959963984540054, 1e-12);
    assert.equal(detectableFromInterval(0, 0, 0.95), null);
});

/** Draws n paired rows with P(only A right) and P(only B right); returns the two counts. */
function drawDiscordant(random: () => number, n: number, onlyA: number, onlyB: number): [number, number] {
    let a = 0, b = 0;
    for (let row = 0; row < n; row++) {
        const u = random();
        if (u < onlyA) a++;
        else if (u < onlyA + onlyB) b++;
    }
    return [a, b];
}

test("McNemar's power figure matches the simulated rejection rate (seeded, 2,000 experiments per setting)", () => {
    const random = seededRandom(20260);
    const experiments = 2000;
    for (const [discordance, delta] of [[0.2, 0.1], [0.3, 0.1], [0.4, 0.08]]) {
        const n = mcnemarRowsNeeded(delta, discordance)!;
        const predicted = mcnemarPower(n, delta, discordance);
        let asymptotic = 0, exact = 0;
        for (let run = 0; run < experiments; run++) {
            const [a, b] = drawDiscordant(random, n, (discordance - delta) / 2, (discordance + delta) / 2);
            if (a + b > 0 && (b - a) / Math.sqrt(a + b) > 1.959963984540054) asymptotic++;
            if (b > a && mcnemarExact(a, b) < 0.05) exact++;
        }
        console.log(`McNemar power, ψ ${discordance}, δ ${delta}, n ${n}: predicted ${predicted.toFixed(3)}, simulated ${(asymptotic / experiments).toFixed(3)} (large-sample test), ${(exact / experiments).toFixed(3)} (exact test)`);
        // The closed form is the large-sample test's power: within 0.04 of its rejection rate (the simulation's own
        // standard error is about 0.009). The exact test the summary runs is conservative: a few points lower.
        close(asymptotic / experiments, predicted, 0.04, `ψ ${discordance}, δ ${delta}, n ${n}: asymptotic test`);
        assert.ok(exact / experiments <= predicted + 0.02 && exact / experiments >= predicted - 0.07, `ψ ${discordance}, δ ${delta}, n ${n}: exact test rejected ${exact / experiments}`);
    }
});

test("the paired normal approximation's figure matches the simulated rejection rate of a paired test (seeded)", () => {
    const random = seededRandom(7);
    const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const n = 120, sd = 0.25, experiments = 2000;
    const delta = pairedDetectable(n, sd)!;
    let rejected = 0;
    for (let run = 0; run < experiments; run++) {
        const differences = Array.from({length: n}, () => delta + sd * gaussian());
        const mean = differences.reduce((sum, value) => sum + value, 0) / n;
        const variance = differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
        if (mean / Math.sqrt(variance / n) > 1.959963984540054) rejected++;
    }
    console.log(`paired normal power, n ${n}: predicted 0.800, simulated ${(rejected / experiments).toFixed(3)}`);
    close(rejected / experiments, 0.8, 0.03, "rejection rate at the detectable difference");
});

test("the discordance a finished run measured, and the sentence eval prints before it sends", () => {
    const spec = experiment([decisionVariant("A", urgentSet, 1), decisionVariant("B", urgentSet, 2)]);
    const dataset = {columns: ["ticket", "urgent"], labelColumns: ["urgent"], rows: [["a", "yes"], ["b", "yes"], ["c", "no"], ["d", "no"]]};
    // A wrong on row 0, B wrong on rows 0 and 2: only A right on row 2, so 1 discordant row of 4.
    const cells = [0.2, 0.9, 0.1, 0.2].map((p, row) => predicateCell(row, 0, p)).concat([0.2, 0.9, 0.8, 0.2].map((p, row) => predicateCell(row, 1, p)));
    assert.equal(measuredDiscordance(summarizeExperiment(spec, dataset, cells)), 0.25);
    assert.equal(measuredDiscordance(summarizeExperiment(spec, dataset, cells.slice(0, 7))), null, "a provisional comparison measures nothing yet");
    assert.equal(comparesVariants(spec), true);
    assert.equal(comparesVariants(experiment([decisionVariant("A", urgentSet, 1), chatVariant("C", "m")])), false);
    // On 50 rows at ψ = 0.2: 0.17304170018350126 (scipy brentq on Connor's power − 0.8).
    assert.equal(describeDetectable(50, assumedDiscordance, "assumed"), "on 50 rows, a difference of 0.173 in the primary metric has an 80% chance of a clear verdict (α = 0.05, discordance 0.200 assumed)");
    assert.equal(describeDetectable(10, 0.2, "assumed"), "on 10 rows, no difference in the primary metric has an 80% chance of a clear verdict (α = 0.05, discordance 0.200 assumed)");
});
