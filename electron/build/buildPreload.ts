// `tsx electron/build/buildPreload.ts`: compiles electron/preload.ts to out/electron/preload.cjs. A sandboxed preload
// must be one CommonJS script that requires nothing but `electron`, so a plain transpile (types erased) is enough.
import {mkdir, readFile, writeFile} from "node:fs/promises";
import path from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import ts from "typescript";

const sourcePath = fileURLToPath(new URL("../preload.ts", import.meta.url));
export const preloadOutputPath = fileURLToPath(new URL("../../out/electron/preload.cjs", import.meta.url));

export async function buildPreload(outputPath = preloadOutputPath): Promise<string> {
    const source = await readFile(sourcePath, "utf8");
    const {outputText, diagnostics} = ts.transpileModule(source, {
        fileName: sourcePath,
        reportDiagnostics: true,
        compilerOptions: {module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, strict: true, removeComments: false}
    });
    if (diagnostics != null && diagnostics.length > 0)
        throw new Error(ts.formatDiagnostics(diagnostics, {getCanonicalFileName: (name) => name, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n"}));
    // Anything but `electron` cannot be loaded by a sandboxed preload: fail the build instead of the window.
    const required = [...outputText.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]).filter((name) => name !== "electron");
    if (required.length > 0) throw new Error(`preload.ts must import only "electron" (and types); it requires ${required.join(", ")}`);
    // The preload exports nothing; drop the ES-module marker so the script does not depend on an `exports` object.
    const script = outputText.replace(/^Object\.defineProperty\(exports, "__esModule", \{ value: true \}\);\n/m, "");
    await mkdir(path.dirname(outputPath), {recursive: true});
    await writeFile(outputPath, script);
    return outputPath;
}

if (process.argv[1] != null && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
    console.log(`preload: ${await buildPreload()}`);
