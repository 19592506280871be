import {startProcess, type StartedProcess} from "./startProcess.ts";

export type Engine = StartedProcess & {url: string};

/** A second local engine (`svc-studio serve`) on its own port, as a stand-in for a remote service; `args` are more serve flags. */
export async function startEngine(options: {model: string, apiKey?: string, args?: string[]}): Promise<Engine> {
    const args = ["serve", "--model", options.model, "--port", "0", "--threads", "1", "--gpu", "off", ...(options.apiKey ? ["--api-key", options.apiKey] : []),
        ...options.args ?? []];
    const started = await startProcess("native/cli/main.ts", args, /listening on (http:\/\/\S+)/, {timeoutMs: 60_000});
    return {...started, url: started.match[1]};
}
