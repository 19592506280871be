// Every browser context of the UI tests is signed in to every gateway the tests started, as a person opening the
// address `npm run web` prints: one GET of the sign-in address through the context, whose cookie jar then holds the
// gateway's session cookie. Done here, for contexts from launchChromium's browser and persistent ones alike, and for
// gateways started after a context (a relaunch on a new port): a test opens `gateway.url` in any context as before.
import type {Browser, BrowserContext} from "playwright-core";

const gateways = new Set<string>();
const contexts = new Set<BrowserContext>();

async function signIn(context: BrowserContext, signInUrl: string) {
    const answer = await context.request.get(signInUrl, {maxRedirects: 0});
    if (answer.status() !== 302) throw new Error(`signing in at ${signInUrl.replace(/token=\w+/, "token=…")} answered ${answer.status()}: ${await answer.text()}`);
}

/** Signs every open context in to the gateway at `signInUrl`, and every later one; the returned function stops that. */
export async function addGateway(signInUrl: string): Promise<() => void> {
    gateways.add(signInUrl);
    await Promise.all([...contexts].map((context) => signIn(context, signInUrl)));
    return () => gateways.delete(signInUrl);
}

/** Signs `context` in to every running gateway, and to each one started while it is open. */
export async function addContext(context: BrowserContext): Promise<BrowserContext> {
    contexts.add(context);
    context.once("close", () => contexts.delete(context));
    await Promise.all([...gateways].map((signInUrl) => signIn(context, signInUrl)));
    return context;
}

/** `browser` whose `newContext` and `newPage` give signed-in contexts. */
export function signingIn(browser: Browser): Browser {
    const newContext = browser.newContext.bind(browser);
    const newPage = browser.newPage.bind(browser);
    browser.newContext = async (options) => addContext(await newContext(options));
    browser.newPage = async (options) => {
        const page = await newPage(options);
        await addContext(page.context());
        return page;
    };
    return browser;
}
