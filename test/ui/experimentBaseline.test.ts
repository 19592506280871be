// A kept earlier run pinned as an experiment's baseline, against the real gateway and engine in Chromium: a chat
// experiment over 8 rows run with a check every reply passes, then again with a check that none can (the same
// replies, from the response cache, judged again), so every pass / fail metric drops; the second pins the first from
// its history and shows, per variant and metric, the rows that improved, regressed and stayed unchanged with the
// one-sided test and its verdict, each column defined on hover. The numbers are counted here again from the cells the
// app's database holds; the pin survives a reload and Unpin takes it back. Screenshots at 1024x768 and 1440x900,
// light and dark, with axe.
import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {noChromium} from "./utils/launchChromium.ts";
import {layoutProblemsAtSizes} from "./utils/layoutAtSizes.ts";
import {readSavedResults} from "./utils/readAppData.ts";
import {datasetAndTopicWriter, topicWriterExperiment} from "./utils/topicWriter.ts";
import {appSession} from "./utils/appSession.ts";
import {baselineColumns} from "../../client/experiments/baselineText.ts";
import type {CellResult} from "../../client/experiments/types.ts";

const csvText = "topic,expected\ncats,cat\ndogs,dog\nbirds,bird\nfish,fish\ntrees,tree\nrain,rain\nsnow,snow\nsun,sun\n";

/** P(X ≥ regressed) for X ~ Binomial(regressed + improved, ½), summed term by term. */
function oneSidedP(regressed: number, improved: number): number {
    const changed = regressed + improved;
    if (regressed === 0) return 1;
    let sum = 0, choose = 1;
    for (let k = 0; k <= changed; k++) {
        if (k >= regressed) sum += choose;
        choose = choose * (changed - k) / (k + 1);
    }
    return Math.min(1, sum / 2 ** changed);
}

/** Holm's step-down adjusted p-values, in the order given. */
function holmAdjusted(pValues: number[]): number[] {
    const order = pValues.map((p, index) => ({p, index})).sort((a, b) => a.p - b.p);
    const adjusted = new Array<number>(pValues.length);
    let running = 0;
    order.forEach(({p, index}, rank) => {
        running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
        adjusted[index] = running;
    });
    return adjusted;
}

const pText = (p: number) => p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;

describe("Experiments: a kept earlier run pinned as the baseline", {skip: noChromium ?? false, timeout: 300_000}, () => {
    const session = appSession("baseline");
    let firstName = "";

    test("a run whose check every reply passes, then the same replies judged by a check none passes", async () => {
        const {page, scratch} = session;
        await datasetAndTopicWriter(page, scratch, "topics.csv", csvText);
        await topicWriterExperiment(page, "topics (8 rows)");
        await page.getByTestId("exp-add-check").click();
        const check = page.getByTestId("exp-check").nth(0);
        await check.getByTestId("exp-check-kind").selectOption("regex");
        await check.getByTestId("exp-check-pattern").fill("[\\s\\S]");
        await expectCount(page.getByTestId("exp-problems"), 0);
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        firstName = (await page.getByTestId("exp-run-card").locator("h3").textContent() ?? "").trim();
        assert.notEqual(firstName, "");
        // The first run has no earlier one to compare with: no baseline card.
        await expectCount(page.getByTestId("exp-verdicts"), 1);
        await expectCount(page.getByTestId("exp-baseline"), 0);
        await page.getByTestId("exp-tabs-setup").click();
        await check.getByTestId("exp-check-pattern").fill("^no reply is this$");
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
    });

    test("the earlier run pinned: per variant and metric, its improved, regressed and unchanged rows and one-sided test, as counted from the stored cells", async () => {
        const {page, gateway} = session;
        const card = page.getByTestId("exp-baseline");
        await card.waitFor();
        assert.ok((await card.getByTestId("exp-baseline-pick").locator("option").first().textContent() ?? "").startsWith(`${firstName} · `));
        await card.getByTestId("exp-baseline-pin").click();
        await expectCount(card.getByTestId("exp-baseline-row"), 4, {timeoutMs: 30_000});
        await expectText(card.getByTestId("exp-baseline-matching"), "8 rows matched by their key.");

        // The same counts from the cells the app's database holds: the earlier run is the baseline, rows paired by topic.
        const saved = [...(await readSavedResults(gateway.dataDir, "experiment")).values()].map((results) => results.map((result) => (result as unknown as {cell: CellResult}).cell));
        assert.equal(saved.length, 2);
        const [before, now] = saved;
        const checkName = before[0].checks![0].name;
        const passed = (cells: CellResult[], variant: number, rowIndex: number, metric: "pass_rate" | "check") => {
            const cell = cells.find((item) => item.variant === variant && item.rowIndex === rowIndex)!;
            return cell.ok && (metric === "pass_rate" ? cell.checks!.every((check) => check.pass) : cell.checks!.find((check) => check.name === checkName)!.pass);
        };
        const expected = [0, 1].flatMap((variant) => (["pass_rate", "check"] as const).map((metric) => {
            const counts = {improved: 0, regressed: 0, unchanged: 0};
            for (let row = 0; row < 8; row++) {
                const was = passed(before, variant, row, metric), is = passed(now, variant, row, metric);
                if (was && !is) counts.regressed++;
                else if (is && !was) counts.improved++;
                else counts.unchanged++;
            }
            return {...counts, p: oneSidedP(counts.regressed, counts.improved)};
        }));
        const adjusted = holmAdjusted(expected.map((item) => item.p));
        const shown = await card.getByTestId("exp-baseline-row").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
        assert.deepEqual(shown.map((cells) => cells[0]), ["A · Pass rate", `A · ${checkName}`, "B · Pass rate", `B · ${checkName}`]);
        shown.forEach((cells, index) => {
            const {improved, regressed, unchanged, p} = expected[index];
            const verdict = adjusted[index] <= 0.05 && regressed > improved ? "regressed" : "no significant regression";
            assert.deepEqual(cells.slice(2), [String(improved), String(regressed), String(unchanged), verdict, pText(p), pText(adjusted[index])], `${cells[0]}`);
        });
        // Every reply passed the first check and none the second: with 8 rows, 8 regressed and none improved on each
        // metric, one-sided p = 0.5^8 (scipy binomtest(8, 8, alternative="greater")), Holm-adjusted 4 × 0.5^8 = 0.015625.
        assert.deepEqual(expected.map((item) => [item.regressed, item.improved]), [[8, 0], [8, 0], [8, 0], [8, 0]]);
        assert.deepEqual(shown.map((cells) => cells[5]), ["regressed", "regressed", "regressed", "regressed"]);
        await expectCount(card.locator("tr.is-regressed"), 4);
        const titles = await card.locator("thead th").evaluateAll((cells) => cells.map((cell) => cell.getAttribute("title")));
        assert.deepEqual(titles, baselineColumns.map((column) => column.definition));
        assert.match(await card.getByTestId("exp-baseline-rule").getAttribute("title") ?? "", /McNemar's exact test, one-sided, with Holm's correction/);
    });

    test("the pin is kept with the experiment: after a reload it is pinned and tested again; Unpin takes it back", async () => {
        const {page, pageErrors} = session;
        const before = await page.getByTestId("exp-baseline-row").evaluateAll((rows) => rows.map((row) => row.textContent));
        await page.reload();
        await page.locator("main[data-screen=experiments]").waitFor();
        const card = page.getByTestId("exp-baseline");
        await eventually(async () => assert.ok((await card.getByTestId("exp-baseline-pinned").textContent({timeout: 1000}) ?? "").startsWith(`Baseline: ${firstName} · started`)), {timeoutMs: 30_000});
        await eventually(async () => assert.deepEqual(await card.getByTestId("exp-baseline-row").evaluateAll((rows) => rows.map((row) => row.textContent)), before), {timeoutMs: 30_000});

        const problems = await layoutProblemsAtSizes(page, "experiments/baseline", async () => {
            await card.scrollIntoViewIfNeeded();
        });
        assert.deepEqual(problems, []);

        await card.getByTestId("exp-baseline-unpin").click();
        await card.getByTestId("exp-baseline-pick").waitFor();
        await expectCount(card.getByTestId("exp-baseline-row"), 0);
        await page.reload();
        await page.locator("main[data-screen=experiments]").waitFor();
        await page.getByTestId("exp-baseline-pick").waitFor();
        await expectCount(page.getByTestId("exp-baseline-pinned"), 0);
        assert.deepEqual(pageErrors, []);
    });
});
