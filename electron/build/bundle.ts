// `npm run build:electron`: bundles what the packaged app runs, so nothing compiles TypeScript at start-up:
// - out/electron/main.mjs: the Electron main process (electron/main.ts and everything it imports);
// - out/electron/preload.cjs: the sandboxed preload, one CommonJS script that requires nothing but `electron`;
// - out/engine/cli.mjs: the engine CLI (native/cli/main.ts) the main process runs as its engine child process.
// npm packages stay external: electron-builder ships node_modules, and native addons (node-llama-cpp,
// @photostructure/sqlite) must be loaded from their own folders. Each bundle lies two folders below the app root, as its
// sources do, so `new URL("../../...", import.meta.url)` paths (renderer/dist, resources/models) resolve the same.
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {build} from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));

export const bundles = [
    {entry: "electron/main.ts", outfile: "out/electron/main.mjs", format: "esm"},
    {entry: "electron/preload.ts", outfile: "out/electron/preload.cjs", format: "cjs"},
    {entry: "native/cli/main.ts", outfile: "out/engine/cli.mjs", format: "esm"}
] as const;

/** Writes the bundles below `outDir` (default: this checkout) and returns their paths. */
export async function bundleElectron(outDir = root): Promise<string[]> {
    const written: string[] = [];
    for (const bundle of bundles) {
        const outfile = path.join(outDir, bundle.outfile);
        const sandboxed = bundle.format === "cjs";
        const result = await build({
            entryPoints: [path.join(root, bundle.entry)],
            outfile,
            bundle: true,
            platform: "node",
            target: "node20",
            format: bundle.format,
            // The sandboxed preload gets only `electron`, so anything else it imports must be inside it.
            packages: sandboxed ? undefined : "external",
            external: ["electron"],
            sourcemap: "linked",
            metafile: true,
            logLevel: "warning"
        });
        if (sandboxed) {
            const required = Object.values(result.metafile.outputs).flatMap((output) => output.imports)
                .filter((item) => item.external && item.path !== "electron").map((item) => item.path);
            if (required.length > 0) throw new Error(`preload.ts must import only "electron" (and types); it requires ${required.join(", ")}`);
        }
        written.push(outfile);
    }
    return written;
}

if (process.argv[1] != null && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
    for (const file of await bundleElectron()) console.log(`bundled ${path.relative(root, file)}`);
