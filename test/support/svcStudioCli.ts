// Test-only: `svc-studio <args>` as its own process (native/cli/bin.mjs on this Node), with its exit code and what it
// wrote to stderr; its response cache goes under `cacheDir`, so a test's runs never share one with the machine's.
import {spawn} from "node:child_process";
import path from "node:path";
import {fileURLToPath} from "node:url";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const bin = path.join(repoRoot, "native/cli/bin.mjs");

export function svcStudio(args: string[], cacheDir: string, env: Record<string, string> = {}): Promise<{code: number | null, stderr: string}> {
    const child = spawn(process.execPath, [bin, ...args], {cwd: repoRoot, stdio: ["ignore", "ignore", "pipe"], env: {...process.env, XDG_CACHE_HOME: cacheDir, ...env}});
    let stderr = "";
    child.stderr.on("data", (chunk) => stderr += chunk);
    return new Promise((resolve) => child.on("exit", (code) => setImmediate(() => resolve({code, stderr}))));
}
