import {mkdir} from "node:fs/promises";
import path from "node:path";
import type {Page} from "playwright-core";
import {repoRoot} from "./startProcess.ts";

export const artifactsDir = path.join(repoRoot, "test-artifacts/ui");

/** Saves the page as `test-artifacts/ui/<name>.png` (for people to look at; nothing compares them). */
export async function screenshot(page: Page, name: string) {
    await mkdir(artifactsDir, {recursive: true});
    // Let the last streamed frame and Monaco's layout settle.
    await page.waitForTimeout(150);
    await page.screenshot({path: path.join(artifactsDir, `${name}.png`)});
}
