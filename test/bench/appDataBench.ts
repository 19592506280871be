import {readFile} from "node:fs/promises";
import type {Page} from "playwright-core";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "../ui/utils/ensureRendererBuilt.ts";
import {gatewayApi} from "../ui/utils/gatewayApi.ts";
import {launchChromium} from "../ui/utils/launchChromium.ts";
import {startWebGateway} from "../ui/utils/startWebGateway.ts";
import {watchLongTasks} from "./longTasks.ts";

export type AppDataBenchResult = {
    emptyStartMs: number, fullStartMs: number, datasets: number, rowsEach: number,
    firstRowsMs: number, allRowsMs: number, longestScrollTaskMs: number, scrollTasksOver50Ms: number,
    gatewayPeakMb: number, editP50Ms: number, editP95Ms: number, edits: number
};

/**
 * The app's data at scale, in Chromium against the real gateway and database (`npm run web`): the time until the app is
 * usable with an empty data folder and with `datasets` datasets of `rowsEach` rows (goal: within 1.2x); opening one of
 * them (goal: first rows in under 1 s) and scrolling it (goal: no main-thread task over 50 ms); the gateway's peak
 * memory (goal: under 300 MB); and one row edit's commit, timed from the page (goal: p95 under 10 ms).
 */
export async function appDataBench(options: {datasets?: number, rowsEach?: number, edits?: number} = {}): Promise<AppDataBenchResult> {
    const datasets = options.datasets ?? 20;
    const rowsEach = options.rowsEach ?? 100_000;
    const edits = options.edits ?? 200;
    ensureRendererBuilt();
    const gateway = await startWebGateway({model: await ensureTinyGguf()});
    const browser = await launchChromium();
    try {
        const page = await browser.newPage({viewport: {width: 1440, height: 900}});
        const longTasks = await watchLongTasks(page);
        await page.goto(gateway.url);
        const emptyStartMs = await startTime(page);
        for (let index = 0; index < datasets; index++) await seedDataset(page, `bench-${index}`, rowsEach);
        const fullStartMs = await startTime(page);

        await page.getByTestId("nav-datasets").click();
        await page.getByTestId("dataset-item").first().waitFor();
        const opened = Date.now();
        await page.getByRole("button", {name: "bench 0", exact: true}).click();
        await page.locator("[data-testid=dataset-row][data-row='0']").waitFor();
        const firstRowsMs = Date.now() - opened;
        await page.getByTestId("dataset-row-count").filter({hasText: / of [\d,]+ rows · /}).waitFor({timeout: 60_000});
        const allRowsMs = Date.now() - opened;

        await longTasks.take();
        const grid = page.getByTestId("dataset-grid");
        for (let step = 1; step <= 40; step++) {
            await grid.evaluate((element, at) => element.scrollTop = at, (step * 97_531) % (rowsEach * 30));
            await page.waitForTimeout(25);
        }
        const tasks = await longTasks.take();

        const times = await page.evaluate(async ({count, rows}) => {
            const spent: number[] = [];
            let revision = ((await (await fetch("/gateway/api/app-data/datasets")).json()) as {datasets: Array<{id: string, revision: number}>}).datasets.find((item) => item.id === "bench-1")!.revision;
            for (let edit = 0; edit < count; edit++) {
                const started = performance.now();
                const response = await fetch("/gateway/api/app-data/datasets/bench-1/changes", {method: "POST", headers: {"content-type": "application/json"},
                    body: JSON.stringify({revision, edits: [{op: "set", index: (edit * 7919) % rows, cells: [`edited ${edit}`, "yes"]}]})});
                revision = ((await response.json()) as {dataset: {revision: number}}).dataset.revision;
                spent.push(performance.now() - started);
            }
            return spent;
        }, {count: edits, rows: rowsEach});
        const status = await readFile(`/proc/${gateway.child.pid}/status`, "utf8").catch(() => "");
        const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
        return {
            emptyStartMs, fullStartMs, datasets, rowsEach, firstRowsMs, allRowsMs,
            longestScrollTaskMs: Math.round(Math.max(0, ...tasks)), scrollTasksOver50Ms: tasks.filter((ms) => ms > 50).length,
            gatewayPeakMb: Math.round(peakKb / 1024), editP50Ms: round(percentile(times, 0.5)), editP95Ms: round(percentile(times, 0.95)), edits
        };
    } finally {
        await browser.close();
        await gateway.stop();
    }
}

/** The median of three loads: from navigation until the app's screen is shown. */
async function startTime(page: Page): Promise<number> {
    const times: number[] = [];
    for (let load = 0; load < 3; load++) {
        const started = Date.now();
        await page.reload();
        await page.locator("main[data-screen]").waitFor();
        times.push(Date.now() - started);
    }
    return times.sort((a, b) => a - b)[1];
}

async function seedDataset(page: Page, id: string, rows: number) {
    const data = Array.from({length: rows}, (_, index) => [`row ${index} of ${id}: a sentence long enough to look like a real input`, index % 2 === 0 ? "yes" : "no"]);
    await gatewayApi(page, `/app-data/datasets/${id}`, {method: "POST", body: {revision: 0, rows: data,
        fields: {name: id.replace("-", " "), columns: ["text", "label"], columnTypes: ["string", "string"], labelColumns: ["label"], inputColumns: ["text"]}}});
}

/** The nearest-rank percentile (`at` in 0..1). */
function percentile(values: number[], at: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(at * sorted.length) - 1))];
}

function round(value: number): number {
    return Math.round(value * 100) / 100;
}
