import {startProcess, type StartedProcess} from "./startProcess.ts";

export type WebGateway = StartedProcess & {url: string};

/**
 * `npm run web` as the user runs it (`tsx electron/web.ts --port 0`), on one CPU thread; resolves once the
 * local engine is running, with the gateway's URL.
 */
export async function startWebGateway(options: {model: string, env?: NodeJS.ProcessEnv}): Promise<WebGateway> {
    const started = await startProcess("electron/web.ts", ["--port", "0", "--model", options.model, "--threads", "1", "--gpu", "off"],
        /engine: running [^\n]*\n/, {env: options.env, timeoutMs: 90_000});
    const url = /Svc Studio web: (http:\/\/127\.0\.0\.1:\d+)/.exec(started.output())?.[1];
    if (!url) {
        await started.stop();
        throw new Error(`The gateway printed no URL:\n${started.output()}`);
    }
    return {...started, url};
}
