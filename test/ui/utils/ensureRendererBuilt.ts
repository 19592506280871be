import {execFileSync} from "node:child_process";
import {existsSync, readdirSync, statSync} from "node:fs";
import path from "node:path";
import {repoRoot} from "./startProcess.ts";

const distIndex = path.join(repoRoot, "renderer/dist/index.html");

function newestSource(dir: string): number {
    let newest = 0;
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
        const full = path.join(dir, entry.name);
        newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
    }
    return newest;
}

/** Builds the renderer when renderer/dist is missing or older than its sources (about 15 s on 2 cores). */
export function ensureRendererBuilt() {
    const sources = Math.max(newestSource(path.join(repoRoot, "renderer/src")), statSync(path.join(repoRoot, "renderer/index.html")).mtimeMs);
    if (existsSync(distIndex) && statSync(distIndex).mtimeMs >= sources) return;
    execFileSync(process.execPath, [path.join(repoRoot, "node_modules/vite/bin/vite.js"), "build", "--config", "renderer/vite.config.ts", "--logLevel", "warn"],
        {cwd: repoRoot, stdio: "inherit"});
}
