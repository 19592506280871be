import {existsSync} from "node:fs";
import {chromium, type Browser, type BrowserContext} from "playwright-core";

export const chromiumPath = "/usr/bin/chromium";

/** Why the UI tests cannot run here, or null when Chromium is installed. */
export const noChromium: string | null = existsSync(chromiumPath) ? null : `${chromiumPath} is not installed (apt-get install chromium)`;

const flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"];

/** `extraArgs` go after the usual flags, e.g. `--host-resolver-rules` to give test origins their own names. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
    return chromium.launch({
        executablePath: chromiumPath,
        args: ["--headless", ...flags, ...extraArgs]
    });
}

/**
 * Chromium on a profile kept in `profileDir`, as a person's browser (or Electron's window) keeps its profile from one
 * launch to the next: its storage, per origin, is still there when it is launched again on the same folder.
 */
export function launchPersistentChromium(profileDir: string): Promise<BrowserContext> {
    return chromium.launchPersistentContext(profileDir, {
        executablePath: chromiumPath,
        headless: true,
        args: flags,
        viewport: {width: 1440, height: 900},
        colorScheme: "dark",
        acceptDownloads: true
    });
}
