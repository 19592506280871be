// Test-only: the app as a UI test drives it. A real gateway on the built-in tiny model, Chromium, one app page open
// on the gateway's address, and a scratch folder, started before a describe block's tests and closed after them.
import {after, before} from "node:test";
import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type {Browser, Page} from "playwright-core";
import {ensureTinyGguf} from "../../fixtures/gguf/ensureTinyGguf.ts";
import {ensureRendererBuilt} from "./ensureRendererBuilt.ts";
import {newAppPage} from "./appPage.ts";
import {launchChromium} from "./launchChromium.ts";
import {startWebGateway, type WebGateway} from "./startWebGateway.ts";

/** Filled by the `before` hook; read it inside the tests. `pageErrors` collects the page's errors and console errors. */
export type AppSession = {gateway: WebGateway, browser: Browser, page: Page, scratch: string, pageErrors: string[]};

/** Registers the hooks of an app session in the current describe block; `name` names its scratch folder. */
export function appSession(name: string, options: Parameters<typeof newAppPage>[2] = {}): AppSession {
    const session = {pageErrors: [] as string[]} as AppSession;
    before(async () => {
        ensureRendererBuilt();
        session.scratch = await mkdtemp(path.join(os.tmpdir(), `svc-studio-${name}-`));
        session.gateway = await startWebGateway({model: await ensureTinyGguf()});
        session.browser = await launchChromium();
        session.page = await newAppPage(session.browser, session.pageErrors, {viewport: {width: 1440, height: 900}, ...options});
        await session.page.goto(session.gateway.url);
    });
    after(async () => {
        await session.browser?.close();
        await session.gateway?.stop();
        if (session.scratch !== undefined) await rm(session.scratch, {recursive: true, force: true});
    });
    return session;
}
