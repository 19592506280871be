// A grader measured against people in the app, against the real gateway and engine in Chromium: a dataset with a
// column of people's verdicts, a chat prompt graded by a decision question whose "Human labels" is that column; the
// results show the grader's sensitivity, specificity, ECE, κ and corrected pass rate, each column defined on hover;
// then a calibration fitted from those rows and the experiment run with it (screenshots at two sizes and themes, axe).
import {describe, test} from "node:test";
import assert from "node:assert/strict";
import {eventually, expectCount, expectText} from "./utils/expect.ts";
import {noChromium} from "./utils/launchChromium.ts";
import {datasetAndTopicWriter, topicWriterExperiment} from "./utils/topicWriter.ts";
import {appSession} from "./utils/appSession.ts";
import {layoutProblemsAtSizes} from "./utils/layoutAtSizes.ts";
import {graderAgreementColumns} from "../../client/experiments/graderAgreementText.ts";

// "polite_label" is a label column by its name, so no prompt is sent with it; rows 5 and 6 have no verdict.
const csvText = "topic,polite_label\ncats,yes\ndogs,no\nbirds,yes\nfish,no\ntrees,\nrain,\n";

describe("Experiments: a grader against human labels", {skip: noChromium ?? false, timeout: 240_000}, () => {
    const session = appSession("grader-humans");

    test("the grader's human label column is chosen in the setup and its agreement shown in the results, with definitions on hover", async () => {
        const {page, scratch, pageErrors} = session;
        await datasetAndTopicWriter(page, scratch, "polite.csv", csvText);

        await topicWriterExperiment(page, "polite (6 rows)");
        await page.getByTestId("exp-grader-enabled").check();
        await page.getByTestId("exp-grader-template").fill("Topic: {{topic}}\nReply: {{reply}}");
        await page.getByTestId("exp-grader-human").selectOption("polite_label");
        await expectCount(page.getByTestId("exp-problems"), 0);
        await page.getByTestId("exp-run").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});

        const card = page.getByTestId("exp-graders");
        await eventually(async () => assert.equal(await page.getByTestId("exp-grader-row").count(), 2, "one row per variant"));
        const first = await page.getByTestId("exp-grader-row").first().locator("td").allTextContents();
        assert.equal(first.length, graderAgreementColumns.length);
        assert.match(first[1], /grounded vs polite_label \(4 labelled\)/);
        // Sensitivity and specificity stand on the rows people passed (2) and failed (2); κ and the ECE on all 4.
        assert.match(first[2], / n=2$/);
        assert.match(first[3], / n=2$/);
        assert.match(first[4], / n=4$/);
        assert.equal(first[5], "–", "a grader carrying no calibration");
        assert.match(first[6], / n=4$/);
        assert.match(first[7], / n=6$/, "the grader's pass rate is over every graded reply");
        const titles = await card.locator("th").evaluateAll((cells) => cells.map((cell) => cell.getAttribute("title")));
        assert.deepEqual(titles, graderAgreementColumns.map((column) => column.definition));
        assert.deepEqual(pageErrors, []);
    });

    test("a calibration fitted from the labelled rows says where it was measured, and a run with it judges the grader through it", async () => {
        const {page, pageErrors} = session;
        const fit = page.getByTestId("exp-grader-fit");
        await fit.getByTestId("exp-grader-fit-button").click();
        // 4 labelled rows × 2 variants: too few to measure it out of fold, which it says.
        await expectText(fit.getByTestId("exp-grader-fit-result"), /^Platt scaling on 8 labelled replies, temperature \d+\.\d{3}, bias -?\d+\.\d{3}; ECE \d\.\d{3} → \d\.\d{3} on its 8 fitting rows\.$/);
        // Other warnings may come first, depending on the replies (the fit's temperature at the end of its range, ...).
        const warnings = await fit.getByTestId("exp-grader-fit-warning").allTextContents();
        assert.ok(warnings.some((warning) => /Measured on the 8 rows it was fitted on/.test(warning)), warnings.join("\n"));
        assert.match(await fit.getByTestId("exp-grader-fit-button").getAttribute("title") ?? "", /out of fold/);
        await fit.getByTestId("exp-grader-fit-run").click();
        // The calibrated copy opens first (the earlier run's status is "completed" too), then it completes.
        await expectText(page.getByTestId("exp-run-card").locator("h3"), /· calibrated$/, {timeoutMs: 30_000});
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        await eventually(async () => {
            const cells = await page.getByTestId("exp-grader-row").first().locator("td").allTextContents();
            assert.match(cells[5], /^\d\.\d{3} → \d\.\d{3}; fit \d\.\d{3} → \d\.\d{3} on its 8 fitting rows$/);
        }, {timeoutMs: 30_000});
        const problems = await layoutProblemsAtSizes(page, "experiments/grader-calibration", async () => {
            await page.getByTestId("exp-graders").scrollIntoViewIfNeeded();
        });
        assert.deepEqual(problems, []);
        // Setup holds the calibrated grader, so a run from there or Run again keeps it.
        await page.getByTestId("exp-tabs-setup").click();
        assert.match(await page.getByTestId("exp-grader-calibration").textContent() ?? "", /^Calibrated on 8 labelled replies/);
        assert.deepEqual(pageErrors, []);
    });
});
