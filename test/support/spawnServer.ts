import {spawn} from "node:child_process";
import path from "node:path";
import {fileURLToPath} from "node:url";

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../native/cli/bin.mjs");

/**
 * `svc-studio serve` in its own process, as users run it: the server's event loop is not shared with the
 * benchmark's or the test's clients, which would otherwise be timed as server overhead, and its memory can be
 * read from /proc/<pid>.
 */
export async function spawnServer(args: string[]): Promise<{url: string, pid: number, close(): Promise<void>}> {
    const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {stdio: ["ignore", "pipe", "inherit"]});
    const url = await new Promise<string>((resolve, reject) => {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
            output += chunk.toString();
            const match = /listening on (http:\/\/\S+)/.exec(output);
            if (match != null) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`serve exited with ${code} before listening:\n${output}`)));
    });
    return {
        url,
        pid: child.pid!,
        close: () => new Promise<void>((resolve) => {
            if (child.exitCode != null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
        })
    };
}
