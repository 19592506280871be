import type {Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "../ui/utils/ensureRendererBuilt.ts";
import {gatewayApi} from "../ui/utils/gatewayApi.ts";
import {launchChromium} from "../ui/utils/launchChromium.ts";
import {startWebGateway} from "../ui/utils/startWebGateway.ts";
import {watchLongTasks} from "./longTasks.ts";

export type ExperimentUiBenchResult = {rows: number, cellsSeen: number, longestTaskMs: number, tasksOver50Ms: number, seconds: number};

/**
 * The page's longest main-thread task while results stream into a 10,000-row experiment, in Chromium (the app as
 * `npm run web` serves it, the built-in model answering): a dataset of `rows` labelled rows and two versions of a
 * one-question set are saved in the app's data folder, the experiment is started from the Experiments screen, and a
 * PerformanceObserver counts long tasks (over 50 ms) for `seconds` once the first cells are in. Goal: under 100 ms, so
 * no result costs the page work proportional to the rows.
 */
export async function experimentUiBench(options: {rows?: number, seconds?: number} = {}): Promise<ExperimentUiBenchResult> {
    const rows = options.rows ?? 10_000;
    const seconds = options.seconds ?? 30;
    ensureRendererBuilt();
    const gateway = await startWebGateway({model: await ensureTinyGguf()});
    const browser = await launchChromium();
    try {
        const page = await browser.newPage({viewport: {width: 1440, height: 900}});
        const longTasks = await watchLongTasks(page);
        await page.goto(gateway.url);
        await seed(page, rows);
        await page.reload();
        await page.getByTestId("nav-experiments").click();
        await page.getByTestId("exp-tabs-setup").click();
        await page.getByTestId("exp-run").click();
        await page.waitForFunction(() => /^[1-9]/.test(document.querySelector("[data-testid=exp-done]")?.textContent ?? ""), undefined, {timeout: 120_000});
        // Long tasks from here on: the screen is open and cells stream in.
        await longTasks.take();
        await page.waitForTimeout(seconds * 1000);
        const tasks = await longTasks.take();
        const cellsSeen = Number((await page.getByTestId("exp-done").textContent() ?? "0").split(" ")[0].replace(/,/g, ""));
        await page.getByTestId("exp-cancel").click();
        return {rows, cellsSeen, longestTaskMs: Math.max(0, ...tasks), tasksOver50Ms: tasks.length, seconds};
    } finally {
        await browser.close();
        await gateway.stop();
    }
}

/** The dataset, the question set's two versions and the Experiments screen's setup, as the app saves them. */
async function seed(page: Page, rows: number) {
    const words = ["please", "thanks", "now", "go away", "hello", "stop it"];
    const data = Array.from({length: rows}, (_, index) => [`${words[index % words.length]} ${index}`, index % 2 === 0 ? "yes" : "no"]);
    await gatewayApi(page, "/app-data/datasets/bench-tone", {method: "POST", body: {revision: 0, rows: data,
        fields: {name: "tone", columns: ["text", "polite_label"], columnTypes: ["string", "string"], labelColumns: ["polite_label"], inputColumns: ["text"]}}});
    // Two versions of the question set, numbered 1 and 2 by the gateway as they are saved.
    for (const instructions of ["Is the text polite?", "Does the text say please, thanks or hello?"])
        await gatewayApi(page, "/app-data/prompts/bench-set/versions", {method: "POST", body: {itemName: "Tone", kind: "decision", note: "",
            prompt: {kind: "decision", input: {kind: "template", template: "{{text}}"}, questionSet: {format: "decisions", name: "Tone", questions: [{type: "predicate", name: "polite", instructions}]}}}});
    const variant = (name: string, number: number) => ({id: name, name, itemId: "bench-set", version: number, connection: "local", model: "", params: "", inputPrice: "", outputPrice: ""});
    const documents: Record<string, unknown> = {
        "svc-studio-experiment-draft": {state: {draft: {name: "UI bench", datasetId: "bench-tone", sample: {kind: "all"}, variants: [variant("A", 1), variant("B", 2)], checks: [],
            grader: {enabled: false, name: "g", question: "", template: "{{reply}}", threshold: "0.5"}, seed: 1, concurrency: 8}}, version: 1}
    };
    // Each write is based on the revision the gateway holds (the page may have saved its defaults already).
    const {revisions} = await gatewayApi<{revisions: Record<string, number>}>(page, "/app-data/documents");
    for (const [key, value] of Object.entries(documents)) await gatewayApi(page, `/app-data/documents/${key}?revision=${revisions[key] ?? 0}`, {method: "POST", body: value});
}
