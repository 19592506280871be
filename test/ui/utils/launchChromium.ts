import {existsSync} from "node:fs";
import {chromium, type Browser, type BrowserContext} from "playwright-core";
import {addContext, signingIn} from "./gatewaySignIn.ts";

export const chromiumPath = "/usr/bin/chromium";

/** Why the UI tests cannot run here, or null when Chromium is installed. */
export const noChromium: string | null = existsSync(chromiumPath) ? null : `${chromiumPath} is not installed (apt-get install chromium)`;

const flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"];

/**
 * `extraArgs` go after the usual flags, e.g. `--host-resolver-rules` to give test origins their own names. Its contexts
 * are signed in to the tests' gateways (gatewaySignIn.ts).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
    return signingIn(await chromium.launch({
        executablePath: chromiumPath,
        args: ["--headless", ...flags, ...extraArgs]
    }));
}

/**
 * Chromium on a profile kept in `profileDir`, as a person's browser (or Electron's window) keeps its profile from one
 * launch to the next: its storage, per origin, is still there when it is launched again on the same folder. It is
 * signed in to the tests' gateways (gatewaySignIn.ts).
 */
export async function launchPersistentChromium(profileDir: string): Promise<BrowserContext> {
    return addContext(await chromium.launchPersistentContext(profileDir, {
        executablePath: chromiumPath,
        headless: true,
        args: flags,
        viewport: {width: 1440, height: 900},
        colorScheme: "dark",
        acceptDownloads: true
    }));
}
