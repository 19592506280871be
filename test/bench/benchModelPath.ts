import {existsSync} from "node:fs";
import path from "node:path";
import {fileURLToPath} from "node:url";
import {ensureTinyGguf} from "../fixtures/gguf/ensureTinyGguf.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** stories260K from ../shared when present (the figure the issue asks for), else the project's own tiny GGUF. */
export async function benchModelPath(): Promise<{path: string, name: string}> {
    const stories = path.resolve(repoRoot, "../shared/models/stories260K.gguf");
    if (existsSync(stories)) return {path: stories, name: "stories260K"};
    return {path: await ensureTinyGguf(), name: "tiny-chatml fixture (stories260K not found)"};
}
