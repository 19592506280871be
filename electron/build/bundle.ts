// `npm run build:electron`: bundles what the packaged app runs, so nothing compiles TypeScript at start-up:
// - out/electron/main.mjs: the Electron main process (electron/main.ts and everything it imports);
// - out/electron/preload.cjs: the sandboxed preload, one CommonJS script that requires nothing but `electron`;
// - out/engine/cli.mjs: the engine CLI (native/cli/main.ts) the main process runs as its engine child process.
// npm packages stay external: electron-builder ships node_modules, and native addons (node-llama-cpp,
// @photostructure/sqlite) must be loaded from their own folders. Each bundle lies two folders below the app root, as its
// sources do, so `new URL("../../...", import.meta.url)` paths (renderer/dist, resources/models) resolve the same.
import {existsSync, readdirSync, readFileSync} from "node:fs";
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {build, type BuildOptions, type Metafile} from "esbuild";

const root = fileURLToPath(new URL("../../", import.meta.url));

export const bundles = [
    {entry: "electron/main.ts", outfile: "out/electron/main.mjs", format: "esm"},
    {entry: "electron/preload.ts", outfile: "out/electron/preload.cjs", format: "cjs"},
    {entry: "native/cli/main.ts", outfile: "out/engine/cli.mjs", format: "esm"}
] as const;

/**
 * esbuild's options for one bundle: `entry` (relative to the checkout) into `outfile`. A test bundles other entries the
 * same way (test/app/mainBundle.test.ts).
 */
export function bundleOptions(entry: string, outfile: string, format: "esm" | "cjs"): BuildOptions & {metafile: true} {
    return {
        entryPoints: [path.join(root, entry)],
        outfile,
        bundle: true,
        platform: "node",
        target: "node20",
        format,
        // The sandboxed preload gets only `electron`, so anything else it imports must be inside it.
        packages: format === "cjs" ? undefined : "external",
        external: ["electron"],
        sourcemap: "linked",
        metafile: true,
        logLevel: "warning"
    };
}

/** Writes the bundles below `outDir` (default: this checkout) and returns their paths. */
export async function bundleElectron(outDir = root): Promise<string[]> {
    const written: string[] = [];
    for (const bundle of bundles) {
        const outfile = path.join(outDir, bundle.outfile);
        const sandboxed = bundle.format === "cjs";
        const result = await build(bundleOptions(bundle.entry, outfile, bundle.format));
        if (bundle.entry === "electron/main.ts") {
            // A native addon that fails to load in the main process (a wrong ABI, a missing library) would leave no
            // window to report it in: native code only ever runs in the engine child, whose failure the window shows.
            const native = nativePackagesImported(result.metafile);
            if (native.length > 0) throw new Error(`the Electron main process must not load native addons at start-up; main.mjs imports ${native.join(", ")}`);
        }
        if (sandboxed) {
            const required = Object.values(result.metafile.outputs).flatMap((output) => output.imports)
                .filter((item) => item.external && item.path !== "electron").map((item) => item.path);
            if (required.length > 0) throw new Error(`preload.ts must import only "electron" (and types); it requires ${required.join(", ")}`);
        }
        written.push(outfile);
    }
    return written;
}

/**
 * The npm packages a bundle loads when it starts (static imports: a dynamic `import()` loads when first used, and its
 * failure is that call's) that carry a native addon, themselves or through their dependencies.
 */
export function nativePackagesImported(metafile: Metafile, modulesDir = path.join(root, "node_modules")): string[] {
    const imported = Object.values(metafile.outputs).flatMap((output) => output.imports)
        .filter((item) => item.external && item.kind !== "dynamic-import" && !item.path.startsWith("node:") && item.path !== "electron")
        .map((item) => packageName(item.path));
    return [...new Set(imported)].filter((name) => carriesAddon(name, modulesDir, new Set())).sort();
}

/** `@scope/name/sub/path` -> `@scope/name`, `name/sub` -> `name`. */
function packageName(specifier: string): string {
    const parts = specifier.split("/");
    return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Whether the installed package (hoisted in `modulesDir`) or a dependency it installs has a `.node` file or a binding.gyp. */
function carriesAddon(name: string, modulesDir: string, seen: Set<string>): boolean {
    if (seen.has(name)) return false;
    seen.add(name);
    const dir = path.join(modulesDir, name);
    if (!existsSync(dir)) return false;
    if (hasAddonFile(dir)) return true;
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {dependencies?: object, optionalDependencies?: object};
    return Object.keys({...manifest.dependencies, ...manifest.optionalDependencies}).some((dependency) => carriesAddon(dependency, modulesDir, seen));
}

function hasAddonFile(dir: string): boolean {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
        if (entry.isDirectory() ? entry.name !== "node_modules" && hasAddonFile(path.join(dir, entry.name))
            : entry.name.endsWith(".node") || entry.name === "binding.gyp") return true;
    }
    return false;
}

if (process.argv[1] != null && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
    for (const file of await bundleElectron()) console.log(`bundled ${path.relative(root, file)}`);
