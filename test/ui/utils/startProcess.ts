import {spawn, type ChildProcess} from "node:child_process";
import {fileURLToPath} from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export type StartedProcess = {
    child: ChildProcess,
    /** Everything the process printed so far (stdout and stderr). */
    output: () => string,
    stop: () => Promise<void>
};

/**
 * Starts `node --import tsx <script> ...args` (or `command ...args`) in the repository (or `cwd`) and waits until its output matches
 * `ready`; returns the match. Fails with the output when the process exits first or `timeoutMs` passes.
 */
export async function startProcess(script: string, args: string[], ready: RegExp, options: {env?: NodeJS.ProcessEnv, timeoutMs?: number, cwd?: string, command?: string[]} = {}): Promise<StartedProcess & {match: RegExpMatchArray}> {
    const [program, ...programArgs] = options.command ?? [process.execPath, "--import", "tsx", script];
    const child = spawn(program, [...programArgs, ...args], {
        cwd: options.cwd ?? repoRoot,
        env: {...process.env, ...options.env},
        stdio: ["ignore", "pipe", "pipe"],
        detached: true
    });
    let text = "";
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const stop = async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        // The process group: the gateway's own engine child goes too.
        try {
            process.kill(-child.pid!, "SIGTERM");
        } catch {
            child.kill("SIGTERM");
        }
        const timer = setTimeout(() => {
            try {
                process.kill(-child.pid!, "SIGKILL");
            } catch {
                // already gone
            }
        }, 5000);
        await exited;
        clearTimeout(timer);
    };
    const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${script} was not ready within ${options.timeoutMs ?? 60_000} ms:\n${text}`)), options.timeoutMs ?? 60_000);
        const onData = (chunk: Buffer) => {
            text += chunk.toString("utf8");
            const found = ready.exec(text);
            if (found) {
                clearTimeout(timer);
                resolve(found);
            }
        };
        child.stdout!.on("data", onData);
        child.stderr!.on("data", onData);
        child.once("exit", (code) => {
            clearTimeout(timer);
            reject(new Error(`${script} exited (${code}) before it was ready:\n${text}`));
        });
    }).catch(async (error) => {
        await stop();
        throw error;
    });
    // Keep collecting output after readiness, for failure messages.
    return {child, match, output: () => text, stop};
}
