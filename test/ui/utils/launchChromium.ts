import {existsSync} from "node:fs";
import {chromium, type Browser} from "playwright-core";

export const chromiumPath = "/usr/bin/chromium";

/** Why the UI tests cannot run here, or null when Chromium is installed. */
export const noChromium: string | null = existsSync(chromiumPath) ? null : `${chromiumPath} is not installed (apt-get install chromium)`;

/** `extraArgs` go after the usual flags, e.g. `--host-resolver-rules` to give test origins their own names. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
    return chromium.launch({
        executablePath: chromiumPath,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", ...extraArgs]
    });
}
