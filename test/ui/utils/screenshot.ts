import {mkdir} from "node:fs/promises";
import path from "node:path";
import type {Page} from "playwright-core";
import {repoRoot} from "./startProcess.ts";

export const artifactsDir = path.join(repoRoot, "test-artifacts/ui");

/**
 * Saves the page as `<dir>/<name>.png`, by default `test-artifacts/ui/<name>.png` (`name` may name a subfolder), for people
 * to look at; nothing compares them. The documentation's pictures are taken with it too (`npm run docs:screenshots`).
 */
export async function screenshot(page: Page, name: string, dir = artifactsDir) {
    await mkdir(path.dirname(path.join(dir, `${name}.png`)), {recursive: true});
    await page.evaluate(async () => {
        await document.fonts.ready;
        // Transitions and finite animations (a bar easing to its width) run to their end; endless ones (a pulsing badge) never do.
        const finite = document.getAnimations().filter((animation) => animation.playState === "running" && animation.effect?.getComputedTiming().endTime !== Infinity);
        await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
        // Two frames: the last React commit (a streamed token) and Monaco's layout, which it does in a frame of its own, are painted.
        await new Promise(requestAnimationFrame);
        await new Promise(requestAnimationFrame);
    });
    await page.screenshot({path: path.join(dir, `${name}.png`)});
}
