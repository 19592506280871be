import {mkdtemp, rm} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {startProcess, type StartedProcess} from "./startProcess.ts";

export type WebGateway = StartedProcess & {url: string, /** The app's data folder (`--data-dir`): what the app saved, as files. */ dataDir: string};

/**
 * `npm run web` as the user runs it (`tsx electron/web.ts --port 0`), on one CPU thread; resolves once the
 * local engine is running, with the gateway's URL. Its data folder is `dataDir` when given (so a test can start the app
 * again on what an earlier launch saved), else a new temporary folder of its own, removed when it stops: tests share no
 * saved data and write nothing into the home folder. The engine gets a free port at every start (`--engine-port 0`)
 * unless `enginePort` gives one, or is "saved" (the data folder's port, as a user's launch): tests run side by side,
 * and two first launches at once would both choose the same first free port.
 */
export async function startWebGateway(options: {model: string, env?: NodeJS.ProcessEnv, dataDir?: string, enginePort?: number | "saved"}): Promise<WebGateway> {
    const dataDir = options.dataDir ?? await mkdtemp(path.join(os.tmpdir(), "svc-studio-app-data-"));
    const removeDataDir = () => options.dataDir == null ? rm(dataDir, {recursive: true, force: true}) : Promise.resolve();
    let started: StartedProcess;
    try {
        const enginePort = options.enginePort === "saved" ? [] : ["--engine-port", String(options.enginePort ?? 0)];
        started = await startProcess("electron/web.ts", ["--port", "0", ...enginePort, "--model", options.model, "--threads", "1", "--gpu", "off", "--data-dir", dataDir],
            /engine: running [^\n]*\n/, {env: options.env, timeoutMs: 90_000});
    } catch (error) {
        await removeDataDir();
        throw error;
    }
    const stop = async () => {
        await started.stop();
        await removeDataDir();
    };
    const url = /Svc Studio web: (http:\/\/127\.0\.0\.1:\d+)/.exec(started.output())?.[1];
    if (!url) {
        await stop();
        throw new Error(`The gateway printed no URL:\n${started.output()}`);
    }
    return {...started, stop, url, dataDir};
}
