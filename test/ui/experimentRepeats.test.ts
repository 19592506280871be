// Repeats in the app, against the real gateway and engine in Chromium: a chat experiment whose rows are asked three
// times. The requests stored as sent carry each repeat's own seed; the results show the repeats card (pass@k, pass^k,
// the noise split, each column defined on hover), a row's repeats as one disagreement with its spread, and every
// answer in the row's detail. Both sizes and themes are checked.
import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {noChromium} from "./utils/launchChromium.ts";
import {datasetAndTopicWriter, topicWriterExperiment} from "./utils/topicWriter.ts";
import {appSession} from "./utils/appSession.ts";
import {layoutProblemsAtSizes} from "./utils/layoutAtSizes.ts";
import {readSavedResults} from "./utils/readAppData.ts";
import {repeatColumns} from "../../client/experiments/repeatStatsText.ts";
import type {CellResult} from "../../client/experiments/types.ts";

const csvText = "topic,expected\ncats,cat\ndogs,dog\nbirds,bird\nfish,fish\n";

describe("Experiments: each row asked three times", {skip: noChromium ?? false, timeout: 300_000}, () => {
    const session = appSession("repeats");

    test("three repeats run with seeds 1–3 per row; the results show them as one row with its spread, pass@k, pass^k and the noise split", async () => {
        const {page, gateway, scratch, pageErrors} = session;
        await datasetAndTopicWriter(page, scratch, "topics.csv", csvText);
        await topicWriterExperiment(page, "topics (4 rows)");
        await page.getByTestId("exp-add-check").click();
        await page.getByTestId("exp-check").nth(0).getByTestId("exp-check-kind").selectOption("regex");
        await page.getByTestId("exp-check").nth(0).getByTestId("exp-check-pattern").fill("^\\s");
        await page.getByTestId("exp-repeats-count").fill("3");
        await expectCount(page.getByTestId("exp-problems"), 0);
        await expectText(page.getByTestId("exp-estimate-requests"), "24");
        await expectText(page.getByTestId("exp-power-repeats"), /Each row asked 3 times: these figures count each row once/);
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 120_000});
        await expectText(page.getByTestId("exp-done"), "24 / 24");

        // What was sent: each row of each variant three times, identical but for the seed.
        const saved = [...(await readSavedResults(gateway.dataDir, "experiment")).values()].flatMap((results) => results.map((result) => (result as unknown as {cell: CellResult}).cell));
        assert.equal(saved.length, 24);
        for (const variant of [0, 1])
            for (const rowIndex of [0, 1, 2, 3]) {
                const asked = saved.filter((cell) => cell.variant === variant && cell.rowIndex === rowIndex).sort((x, y) => (x.repeat ?? 0) - (y.repeat ?? 0));
                assert.deepEqual(asked.map((cell) => cell.request.seed), [1, 2, 3], `variant ${variant} row ${rowIndex}`);
                const {seed: _seed, ...rest} = asked[0].request;
                assert.ok(asked.every((cell) => JSON.stringify({...cell.request, seed: undefined}) === JSON.stringify({...rest, seed: undefined})));
            }

        const card = page.getByTestId("exp-repeats");
        await expectText(card, /Each row was asked 3 times: metrics count answers \(4 rows × 3\)/);
        await eventually(async () => assert.equal(await page.getByTestId("exp-repeat-row").count(), 2, "one row per chat variant"));
        const cells = await page.getByTestId("exp-repeat-row").first().locator("td").allTextContents();
        assert.equal(cells.length, repeatColumns.length);
        // pass@3 is at least pass^3, and the rows by passes add up to the 4 rows.
        const rate = (text: string) => Number(/^[\d.]+/.exec(text)?.[0]);
        assert.ok(rate(cells[2]) >= rate(cells[3]), `${cells[2]} vs ${cells[3]}`);
        assert.equal([...cells[4].matchAll(/: (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0), 4, cells[4]);
        assert.match(cells[7], /^\d\.\d\d×$/);
        const titles = await card.locator("th").evaluateAll((headings) => headings.map((heading) => heading.getAttribute("title")));
        assert.deepEqual(titles, repeatColumns.map((column) => column.definition));
        // The pass rate counts answers, and its n is all twelve of them.
        await expectText(page.getByTestId("exp-matrix-row").first(), /./);

        // Any disagreement is one row with each variant's repeats in it; its detail shows every answer.
        const rows = page.getByTestId("exp-disagreement");
        if (await rows.count() > 0) {
            const texts = await rows.allTextContents();
            assert.ok(texts.every((text) => /\d\/3 repeats passed/.test(text)), texts.join("\n"));
            await rows.first().getByTestId("exp-open-row").click();
            const detail = page.getByTestId("exp-row-detail");
            await expectCount(detail.getByTestId("exp-detail-repeat"), 6);
            await expectText(detail.getByTestId("exp-detail-repeats").first(), /of 3 answers passed every check/);
            await detail.getByRole("button", {name: "Close the row"}).click();
        }

        const problems = await layoutProblemsAtSizes(page, "experiments-repeats", async () => card.scrollIntoViewIfNeeded());
        assert.deepEqual(problems, []);

        // After a reload the kept experiment opens again with its repeats, and the setup keeps the repeat count.
        await page.reload();
        await expectText(page.getByTestId("exp-repeats"), /Each row was asked 3 times/, {timeoutMs: 30_000});
        await expectText(page.getByTestId("exp-done"), "24 / 24");
        await page.getByTestId("exp-tabs-setup").click();
        await eventually(async () => assert.equal(await page.getByTestId("exp-repeats-count").inputValue(), "3"));
        assert.deepEqual(pageErrors, []);
    });
});
