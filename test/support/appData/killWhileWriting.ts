// Test-only: a crash of the gateway while it saves, made real: a writer process killed with SIGKILL mid-write.
import {spawn} from "node:child_process";
import {fileURLToPath} from "node:url";

const writer = fileURLToPath(new URL("./writeUntilKilled.ts", import.meta.url));

/** Starts the writer on `dir`, lets it write for a while after its first writes, then kills it with SIGKILL. */
export async function killWhileWriting(dir: string, mode: "document" | "results", afterMs: number): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", writer, dir, mode], {stdio: ["ignore", "pipe", "pipe"]});
    let output = "";
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the writer did not start writing: ${output}`)), 30_000);
        const onData = (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes("writing")) {
                clearTimeout(timer);
                resolve();
            }
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
        child.once("exit", (code) => {
            clearTimeout(timer);
            reject(new Error(`the writer exited (${code}): ${output}`));
        });
    });
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    child.kill("SIGKILL");
    await exited;
}
