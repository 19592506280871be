import {existsSync} from "node:fs";
import {stat} from "node:fs/promises";
import {fileURLToPath} from "node:url";
import type {LibraryModel} from "../../protocol/gateway/contract.ts";
import {readModelFileInfo} from "./modelFile.ts";

// The built-in model (resources/models/README.md): served when no model is given and the library is empty, so a
// fresh clone or a fresh install answers at once. It is a real trained model (children's stories), not a test fixture.

/**
 * Where the built-in model lies. In the packaged app the file is unpacked from the asar archive
 * (electron-builder.yml `asarUnpack`), because llama.cpp opens model files with its own file I/O.
 */
export const embeddedModelPath = fileURLToPath(new URL("../../resources/models/stories260K.gguf", import.meta.url))
    .replace(/([\\/])app\.asar([\\/])/, "$1app.asar.unpacked$2");

export const embeddedModel = {
    id: "stories260K",
    name: "stories260K (built-in)",
    path: embeddedModelPath,
    sizeBytes: 1_185_376,
    sha256: "270cba1bd5109f42d03350f60406024560464db173c0e387d91f0426d3bd256d"
} as const;

export function hasEmbeddedModel(): boolean {
    return existsSync(embeddedModelPath);
}

/** The built-in model as the Models screen lists it (header read, as for library models); undefined when absent. */
export async function describeEmbeddedModel(): Promise<LibraryModel | undefined> {
    if (!hasEmbeddedModel()) return undefined;
    const [stats, read] = await Promise.all([stat(embeddedModelPath), readModelFileInfo(embeddedModelPath).then((info) => ({info}), (error: Error) => ({error: error.message}))]);
    return {id: embeddedModel.id, path: embeddedModelPath, sizeBytes: stats.size, modifiedAt: stats.mtime.toISOString(), ...read, roles: [], isDefault: false, builtIn: true};
}

/** The one line `serve` and the app print when they fall back to the built-in model. */
export const embeddedModelNote = "no model given and the model library is empty: serving the built-in stories260K " +
    "(a 1.2 MB model that writes children's stories, no chat template); for a better model run " +
    "`svc-studio pull <catalog id>` (`svc-studio pull --help` lists them) or open the app's Models screen";
