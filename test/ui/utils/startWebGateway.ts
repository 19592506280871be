import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {addGateway} from "./gatewaySignIn.ts";
import {startProcess, type StartedProcess} from "./startProcess.ts";

export type WebGateway = StartedProcess & {
    url: string,
    /** The launch token, from the sign-in address it printed: the `X-Gateway-Token` header's value for calls from outside a page. */
    token: string,
    /** The app's data folder (`--data-dir`): what the app saved, as files. */
    dataDir: string
};

/**
 * `npm run web` as the user runs it (`tsx electron/web.ts --port 0`), on one CPU thread; resolves once the
 * local engine is running, with the gateway's URL. Its data folder is `dataDir` when given (so a test can start the app
 * again on what an earlier launch saved), else a new temporary folder of its own, removed when it stops: tests share no
 * saved data and write nothing into the home folder. The engine gets a free port at every start (`--engine-port 0`)
 * unless `enginePort` gives one, or is "saved" (the data folder's port, as a user's launch): tests run side by side,
 * and two first launches at once would both choose the same first free port. Every browser context of the tests is
 * signed in to it while it runs (gatewaySignIn.ts), so a page opens `url` as a signed-in browser does.
 */
export async function startWebGateway(options: {model: string, env?: NodeJS.ProcessEnv, dataDir?: string, enginePort?: number | "saved", args?: string[]}): Promise<WebGateway> {
    const dataDir = options.dataDir ?? await mkdtemp(path.join(os.tmpdir(), "svc-studio-app-data-"));
    const removeDataDir = () => options.dataDir == null ? rm(dataDir, {recursive: true, force: true}) : Promise.resolve();
    let started: StartedProcess;
    try {
        const enginePort = options.enginePort === "saved" ? [] : ["--engine-port", String(options.enginePort ?? 0)];
        started = await startProcess("electron/web.ts", ["--port", "0", ...enginePort, "--model", options.model, "--threads", "1", "--gpu", "off", "--data-dir", dataDir, ...options.args ?? []],
            /engine: running [^\n]*\n/, {env: options.env, timeoutMs: 90_000});
    } catch (error) {
        await removeDataDir();
        throw error;
    }
    let forget = () => {};
    const stop = async () => {
        forget();
        await started.stop();
        await removeDataDir();
    };
    const printed = /Svc Studio web: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([0-9a-f]{64})/.exec(started.output());
    if (printed == null) {
        await stop();
        throw new Error(`The gateway printed no sign-in address:\n${started.output()}`);
    }
    const [signInUrl, url, token] = [printed[0].slice("Svc Studio web: ".length), printed[1], printed[2]];
    try {
        forget = await addGateway(signInUrl);
    } catch (error) {
        await stop();
        throw error;
    }
    return {...started, stop, url, token, dataDir};
}
