// Two windows of the app on one gateway (`npm run web`) in Chromium, editing the same saved document (the Decision
// studio's question set): the second window's save, based on what it read before the first window saved again, is
// refused; the window says so and offers to reload or keep its own; a reload shows the first window's version, and
// "Keep mine" saves the second's over it.
import {after, before, describe, test} from "node:test";
import assert from "node:assert/strict";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {newAppPage} from "./utils/appPage.ts";
import {ensureRendererBuilt} from "./utils/ensureRendererBuilt.ts";
import {eventually as retried, expectCount, expectText} from "./utils/expect.ts";
import {launchChromium, noChromium} from "./utils/launchChromium.ts";
import {readDatasets, readDocument} from "./utils/readAppData.ts";
import {startWebGateway, type WebGateway} from "./utils/startWebGateway.ts";

const key = "svc-studio-question-set";
/** Long enough for a save's round trip on a machine busy with other tests. */
const patience = {timeoutMs: 30_000};
const eventually = (assertion: () => unknown) => retried(assertion, patience);

describe("two windows edit the same saved data", {skip: noChromium ?? false, timeout: 300_000}, () => {
    let gateway: WebGateway;
    let browser: Browser;
    let windowA: Page;
    let windowB: Page;
    const pageErrors: string[] = [];
    const savedName = async () => (await readDocument(gateway.dataDir, key) as {state: {questionSet?: {name?: string}, name?: string}} | undefined);
    const nameInput = (page: Page) => page.getByTestId("qs-name");

    before(async () => {
        ensureRendererBuilt();
        gateway = await startWebGateway({model: await ensureTinyGguf()});
        browser = await launchChromium();
        windowA = await newAppPage(browser, pageErrors);
        windowB = await newAppPage(browser, pageErrors);
    });

    after(async () => {
        await browser?.close();
        await gateway?.stop();
    });

    test("the second window's stale save is refused and said so; reload shows the first's version, Keep mine saves its own", async () => {
        await windowA.goto(gateway.url);
        await windowA.getByTestId("nav-decisions").click();
        await nameInput(windowA).fill("Set from A");
        await eventually(async () => assert.match(JSON.stringify(await savedName()), /Set from A/));

        // B reads the documents as they are now; A saves again after.
        await windowB.goto(gateway.url);
        await windowB.getByTestId("nav-decisions").click();
        assert.equal(await nameInput(windowB).inputValue(), "Set from A");
        await nameInput(windowA).fill("Set from A, again");
        await eventually(async () => assert.match(JSON.stringify(await savedName()), /Set from A, again/));

        await nameInput(windowB).fill("Set from B");
        const note = windowB.getByTestId("app-data-problem");
        await expectText(note, /^Another window changed the question set: reload to take its version, or keep yours/, patience);
        assert.deepEqual(await note.getByTestId("app-data-action").allTextContents(), ["Reload (take its version)", "Keep mine"]);
        // Nothing of A's is lost, and B's edit is still on its screen.
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.match(JSON.stringify(await savedName()), /Set from A, again/);
        assert.equal(await nameInput(windowB).inputValue(), "Set from B");
        await expectCount(windowA.getByTestId("app-data-problem"), 0);

        // Reload: B now shows A's version, and no note.
        await note.getByTestId("app-data-action").filter({hasText: "Reload"}).click();
        await windowB.waitForLoadState("load");
        await windowB.getByTestId("nav-decisions").click();
        await eventually(async () => assert.equal(await nameInput(windowB).inputValue(), "Set from A, again"));
        await expectCount(windowB.getByTestId("app-data-problem"), 0);

        // Now A is behind: its next save is refused, and Keep mine puts its version over B's.
        await nameInput(windowB).fill("Set from B, after the reload");
        await eventually(async () => assert.match(JSON.stringify(await savedName()), /Set from B, after the reload/));
        await nameInput(windowA).fill("Set from A, kept");
        const noteA = windowA.getByTestId("app-data-problem");
        await expectText(noteA, /^Another window changed the question set/, patience);
        await noteA.getByTestId("app-data-action").filter({hasText: "Keep mine"}).click();
        await eventually(async () => assert.match(JSON.stringify(await savedName()), /Set from A, kept/));
        await expectCount(windowA.getByTestId("app-data-problem"), 0);

        // The refusals show in the console as failed requests (409); nothing else went wrong.
        assert.deepEqual(pageErrors.filter((error) => !/status of 409/.test(error)), []);
    });

    test("a dataset edited in both: the second window's stale change is refused and said so; it takes the other's version or keeps its own", async () => {
        const rowsOf = async () => (await readDatasets(gateway.dataDir)).find((dataset) => dataset.name === "Shared")?.rows ?? [];
        const addRow = async (page: Page, text: string) => {
            await page.getByTestId("dataset-add-value").first().fill(text);
            await page.getByTestId("dataset-add-submit").click();
        };
        await windowA.goto(gateway.url);
        await windowA.getByTestId("nav-datasets").click();
        await windowA.getByTestId("dataset-new-columns").fill("text");
        await windowA.getByTestId("dataset-new").click();
        await expectText(windowA.getByTestId("datasets-message"), /Created "New dataset"/);
        await windowA.getByTestId("dataset-name").fill("Shared");
        await windowA.getByTestId("dataset-name").blur();
        await eventually(async () => assert.equal((await readDatasets(gateway.dataDir))[0]?.name, "Shared"));

        await windowB.goto(gateway.url);
        await windowB.getByTestId("nav-datasets").click();
        await expectText(windowB.getByTestId("dataset-row-count"), /^0 of 0 rows/);
        await addRow(windowA, "from A");
        await eventually(async () => assert.deepEqual(await rowsOf(), [["from A"]]));

        await addRow(windowB, "from B");
        const note = windowB.getByTestId("app-data-problem");
        await expectText(note, /^Another window changed the dataset "Shared": take its version, or keep yours/, patience);
        assert.deepEqual(await note.getByTestId("app-data-action").allTextContents(), ["Keep mine", "Take its version"]);
        assert.deepEqual(await rowsOf(), [["from A"]], "A's row is kept");
        await expectCount(windowB.getByTestId("dataset-row"), 1);
        assert.equal(await windowB.getByTestId("dataset-cell").first().textContent(), "from B", "B's edit is still on its screen");

        await note.getByTestId("app-data-action").filter({hasText: "Take its version"}).click();
        await eventually(async () => assert.equal(await windowB.getByTestId("dataset-cell").first().textContent(), "from A"));
        await expectCount(windowB.getByTestId("app-data-problem"), 0);
        await addRow(windowB, "from B, after");
        await eventually(async () => assert.deepEqual(await rowsOf(), [["from A"], ["from B, after"]]));

        // A is behind now: Keep mine saves its copy whole over B's.
        await addRow(windowA, "from A, kept");
        const noteA = windowA.getByTestId("app-data-problem");
        await expectText(noteA, /^Another window changed the dataset "Shared"/, patience);
        await noteA.getByTestId("app-data-action").filter({hasText: "Keep mine"}).click();
        await eventually(async () => assert.deepEqual(await rowsOf(), [["from A"], ["from A, kept"]]));
        await expectCount(windowA.getByTestId("app-data-problem"), 0);
        assert.deepEqual(pageErrors.filter((error) => !/status of 409/.test(error)), []);
    });
});
