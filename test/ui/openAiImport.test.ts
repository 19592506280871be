// OpenAI files opened in the app, against the real gateway and engine (`npm run web`, a tiny model) in Chromium:
// Versions → Import an OpenAI prompt… saves a prompt object file as a Responses prompt with a version per OpenAI version
// (read back from the app's database), a malformed file is said by file and line and nothing is saved, and a second
// import of the same prompt saves nothing; Experiments → History → Open a file… with an eval export keeps the eval as
// an experiment whose cells run on the local engine, and OpenAI's run beside it with its outputs (a run picked without
// its eval is said, and nothing kept).
import {after, describe, test} from "node:test";
import assert from "node:assert/strict";
import {readFile, writeFile} from "node:fs/promises";
import path from "node:path";
import {expectCount, expectText} from "./utils/expect.ts";
import {noChromium} from "./utils/launchChromium.ts";
import {appSession} from "./utils/appSession.ts";
import {layoutProblemsAtSizes} from "./utils/layoutAtSizes.ts";
import {readPromptItems, readPromptVersions, readSavedResults} from "./utils/readAppData.ts";
import {repoRoot} from "./utils/startProcess.ts";

const promptFixture = path.join(repoRoot, "test/fixtures/openai-prompts/support-reply.json");
const evalFixture = (name: string) => path.join(repoRoot, "test/fixtures/openai-evals", name);
const promptId = "pmpt_68a1f0c2b7e48190a3d2c5e6f7a8b9c0";

describe("OpenAI prompt objects and eval exports open in the app", {skip: noChromium ?? false, timeout: 300_000}, () => {
    const session = appSession("openai", {viewport: {width: 1024, height: 768}, colorScheme: "light"});
    after(() => assert.deepEqual(session.pageErrors, []));

    test("a malformed prompt file: its file and line said, nothing saved", async () => {
        const {page, gateway, scratch} = session;
        await page.getByTestId("nav-versions").click();
        const broken = path.join(scratch, "broken-prompt.json");
        await writeFile(broken, "{\n  \"id\": \"pmpt_1\",\n  \"version\": \"1\",\n  \"input\": \"{{q}}\",\n}\n");
        await page.getByTestId("versions-import-openai-input").setInputFiles(broken);
        await expectText(page.getByTestId("versions-message"), "broken-prompt.json:5: not valid JSON: Expected double-quoted property name. Nothing was saved.");
        assert.deepEqual(await readPromptItems(gateway.dataDir), []);
    });

    test("a prompt's three versions saved as one Responses prompt, each with its note, read back from the database", async () => {
        const {page, gateway} = session;
        await page.getByTestId("versions-import-openai-input").setInputFiles(promptFixture);
        await expectText(page.getByTestId("versions-message"), new RegExp(`^Saved "Support reply" \\(OpenAI prompt ${promptId}\\) with its 3 versions from support-reply\\.json\\. From the file: not imported: support-reply\\.json:21: data\\[0\\]\\.store`));
        await expectCount(page.getByTestId("version-row"), 3);
        assert.deepEqual(await page.getByTestId("version-note-text").allTextContents(), [
            `OpenAI prompt ${promptId} version 3 · gpt-4.1 · the default version · JSON reply with a tone label`,
            `OpenAI prompt ${promptId} version 2 · gpt-4.1-mini · Names the customer; may look up an order`,
            `OpenAI prompt ${promptId} version 1 · gpt-4.1-mini`
        ]);
        assert.match(await page.getByTestId("version-row").first().textContent() ?? "", /instructions · input · variables: product, customer_name, question/);
        assert.deepEqual((await readPromptItems(gateway.dataDir)).map((item) => ({...item})), [{id: `openai-${promptId}`, name: "Support reply", kind: "responses", latest: 3}]);
        const versions = await readPromptVersions(gateway.dataDir, `openai-${promptId}`);
        assert.deepEqual(versions.map((version) => [version.version, version.note.split(" · ")[0]]), [
            [1, `OpenAI prompt ${promptId} version 1`], [2, `OpenAI prompt ${promptId} version 2`], [3, `OpenAI prompt ${promptId} version 3`]
        ]);
        assert.deepEqual(versions[0].body, {kind: "chat", endpoint: "responses", body: {
            instructions: "You answer customers of {{product}}. Be friendly.", input: [{role: "user", content: "{{question}}"}], temperature: 0.7, top_p: 1, max_output_tokens: 256
        }});
    });

    test("the same prompt imported again: said, nothing more saved", async () => {
        const {page, gateway} = session;
        await page.getByTestId("versions-import-openai-input").setInputFiles(promptFixture);
        await expectText(page.getByTestId("versions-message"), /support-reply\.json: "Support reply" \(OpenAI prompt pmpt_\w+\) is saved already, with 3 versions: delete it on the Versions screen to import the file again\. Nothing was saved\.$/);
        assert.equal((await readPromptVersions(gateway.dataDir, `openai-${promptId}`)).length, 3);
    });

    test("the imported prompt at 1024x768 and 1440x900 in both themes: nothing cut off, no serious accessibility violation", async () => {
        const {page} = session;
        await page.getByTestId("versions-import-openai").hover();
        const problems = await layoutProblemsAtSizes(page, "openai-prompt-import", async () => {
            await page.getByTestId("versions-message").scrollIntoViewIfNeeded();
        });
        assert.deepEqual(problems, []);
        await page.setViewportSize({width: 1024, height: 768});
    });

    test("an eval export opened in History: kept as an experiment run on the local engine, OpenAI's run beside it", async () => {
        const {page, gateway, scratch} = session;
        // The built-in model's context is 2,048 tokens: the run's 2,048 output tokens are lowered to 16.
        const run = JSON.parse(await readFile(evalFixture("run.json"), "utf8")) as {data_source: {sampling_params: Record<string, number>}};
        run.data_source.sampling_params.max_completions_tokens = 16;
        await writeFile(path.join(scratch, "run.json"), JSON.stringify(run, null, 2));
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-history").click();
        // A run without its eval: said, nothing kept.
        await page.getByTestId("exp-import-input").setInputFiles([path.join(scratch, "run.json"), evalFixture("items.jsonl")]);
        await expectText(page.getByTestId("exp-import-message"), /^run\.json belongs to an OpenAI eval: pick the eval .* together with it\. Nothing was kept\.$/);
        await expectCount(page.getByTestId("exp-saved"), 0);
        await page.getByTestId("exp-import-input").setInputFiles([evalFixture("eval.json"), path.join(scratch, "run.json"), evalFixture("items.jsonl"), evalFixture("output_items.json")]);
        await expectText(page.getByTestId("exp-import-message"), /^Opened eval\.json: 0 of 4 cells; Resume sends the rest\. OpenAI's run is kept beside it with its outputs: tick both in History to compare\. From the file: not imported: eval\.json:101: metadata/);
        await page.getByTestId("exp-tabs-history").click();
        await expectCount(page.getByTestId("exp-saved"), 2);
        assert.match(await page.getByTestId("exp-saved").allTextContents().then((rows) => rows.join("\n")), /News headline topics \(OpenAI's run\)/);
        const layout = await layoutProblemsAtSizes(page, "openai-eval-open", async () => {
            await page.getByTestId("exp-import-message").scrollIntoViewIfNeeded();
        });
        assert.deepEqual(layout, []);
        await page.setViewportSize({width: 1024, height: 768});
        await page.getByTestId("exp-tabs-results").click();
        await page.getByTestId("exp-continue").click();
        await expectText(page.getByTestId("exp-status"), "completed", {timeoutMs: 120_000});
        await expectText(page.getByTestId("exp-done"), "4 / 4");
        const saved = [...(await readSavedResults(gateway.dataDir, "experiment")).values()];
        const [previous, opened] = saved.map((cells) => cells.map((cell) => (cell as unknown as {cell: {request: {messages?: Array<{content: string}>}, reply: string, error?: unknown, checks: Array<{name: string}>}}).cell));
        // OpenAI's replies, as its output items gave them; then the new run's cells, each row's headline in its request.
        assert.deepEqual(previous.map((cell) => cell.reply), ["Markets", "Business, or maybe technology"]);
        assert.equal(opened.length, 4);
        for (const cell of opened) {
            assert.equal(cell.error, undefined, JSON.stringify(cell));
            assert.match(JSON.stringify(cell.request), /Categorize the news headline/);
            assert.deepEqual(cell.checks.map((check) => check.name), ["equals_topic", "contains_topic", "equals_Answers something reference", "Tone", "Confidence"]);
        }
    });
});
