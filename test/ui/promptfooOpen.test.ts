// A promptfoo config opened in the app, against the real gateway and engine (`npm run web`, a tiny model) in
// Chromium: Experiments → History → Open a file… with promptfooconfig.yaml and the files it names opens the suite as a
// kept experiment, says what was not imported, and its cells run on the local engine with the config's checks; a
// named file left out of the pick is said by name, and nothing is kept. The Export bar's promptfoo config of it sends
// to the local engine's own address.
import {after, describe, test} from "node:test";
import assert from "node:assert/strict";
import {readFile} from "node:fs/promises";
import path from "node:path";
import {parse} from "yaml";
import {expectCount, expectText} from "./utils/expect.ts";
import {noChromium} from "./utils/launchChromium.ts";
import {appSession} from "./utils/appSession.ts";
import {readSavedResults} from "./utils/readAppData.ts";
import {repoRoot} from "./utils/startProcess.ts";

const fixture = (name: string) => path.join(repoRoot, "test/fixtures/promptfoo/simple-csv", name);

describe("A promptfoo config opens in the app, and goes out again", {skip: noChromium ?? false, timeout: 240_000}, () => {
    const session = appSession("promptfoo-open", {viewport: {width: 1024, height: 768}, colorScheme: "light"});
    after(() => assert.deepEqual(session.pageErrors, []));

    test("a file the config names, left out of the pick: said by name, nothing kept", async () => {
        const {page} = session;
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-history").click();
        await page.getByTestId("exp-import-input").setInputFiles([fixture("promptfooconfig.yaml"), fixture("prompts.txt")]);
        await expectText(page.getByTestId("exp-import-message"), /promptfooconfig\.yaml:6: tests: no such file: tests\.csv \(pick it together with promptfooconfig\.yaml\)/);
        await expectCount(page.getByTestId("exp-saved"), 0);
    });

    test("the config with its files: kept, the report said, and its cells run with the config's checks", async () => {
        const {page, gateway} = session;
        await page.getByTestId("exp-import-input").setInputFiles([fixture("promptfooconfig.yaml"), fixture("prompts.txt"), fixture("tests.csv")]);
        await expectText(page.getByTestId("exp-import-message"), /^Opened promptfooconfig\.yaml: 0 of 4 cells; Resume sends the rest\. From the config: not imported: promptfooconfig\.yaml:3: prompts\[0\]: this prompt is not imported/);
        await page.getByTestId("exp-tabs-history").click();
        await expectCount(page.getByTestId("exp-saved"), 1);
        await page.getByTestId("exp-tabs-results").click();
        await page.getByTestId("exp-continue").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 90_000});
        await expectText(page.getByTestId("exp-done"), "4 / 4");
        const [cells] = [...(await readSavedResults(gateway.dataDir, "experiment")).values()];
        const stored = cells.map((cell) => (cell as unknown as {cell: {request: {messages: Array<{content: string}>}, reply: string, checks: Array<{name: string, pass: boolean}>}}).cell);
        assert.equal(stored.length, 4);
        for (const cell of stored) {
            // The second prompt of prompts.txt, filled with the row; the __expected column's icontains, judged on the reply.
            assert.match(cell.request.messages[0].content, /^You are a conversational language assistant\. Follow the style configuration: \{"tone"/);
            assert.deepEqual(cell.checks.map((check) => check.name), ["contains_icontains"]);
        }
        const expected = new Map([["French", ["bonjour", "faim"]], ["Pirate", ["ahoy", "grub"]]]);
        for (const cell of stored) {
            const language = /to (French|Pirate) in a natural/.exec(cell.request.messages[0].content)![1];
            assert.equal(cell.checks[0].pass, expected.get(language)!.some((word) => cell.reply.toLowerCase().includes(word)));
        }
    });

    test("the Export bar's promptfoo config: the variant a provider at the local engine's address, the rows its tests", async () => {
        const {page} = session;
        const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("exp-export-promptfoo").click()]);
        assert.match(download.suggestedFilename(), /\.promptfooconfig\.yaml$/);
        const config = parse(await readFile(await download.path(), "utf8")) as {providers: Array<{id: string, config: {apiBaseUrl: string}}>, tests: Array<{vars: Record<string, string>, assert: Array<{type: string, value: string}>}>};
        assert.deepEqual(config.providers.map((provider) => provider.id), ["openai:chat:svc-1"]);
        assert.match(config.providers[0].config.apiBaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/svc-1\/v1$/);
        // The address is the engine's: without a key of its workspace (SVC_API_KEY, the config's apiKeyEnvar) it refuses, in the API's own shape.
        const engine = await fetch(`${config.providers[0].config.apiBaseUrl}/models`);
        const body = await engine.json() as {error?: {code?: string}};
        assert.deepEqual([engine.status, typeof body.error?.code], [401, "string"], JSON.stringify(body));
        assert.deepEqual(config.tests.map((item) => [item.vars.language, item.assert]), [
            ["French", [{type: "icontains", value: "bonjour"}]], ["French", [{type: "icontains", value: "faim"}]],
            ["Pirate", [{type: "icontains", value: "Ahoy"}]], ["Pirate", [{type: "icontains", value: "grub"}]]
        ]);
    });
});
