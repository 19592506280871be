import {readdir} from "node:fs/promises";
import path from "node:path";
import {readModelFileInfo} from "./modelFile.ts";

// Vision projectors (mmproj GGUFs) beside the models they extend. A projector is paired with a model of the same
// folder by name, the way Hugging Face repositories ship them: `SmolVLM-256M-Instruct-Q8_0.gguf` with
// `mmproj-SmolVLM-256M-Instruct-Q8_0.gguf`. Both names are compared without `.gguf`, without the `mmproj` word and
// without a trailing quantisation tag, so an f16 projector still pairs with a Q4_K_M model. Repositories whose
// projector has a generic name (`mmproj-model-f16.gguf`) pair through the name the catalog saves it under, or
// `serve --mmproj <file>`. Nothing is paired by guesswork (a lone projector beside several models stays unpaired).

/** Quantisation tags as llama.cpp's tools write them: Q8_0, Q4_K_M, IQ4_XS, F16, BF16, F32, MXFP4 ... */
const quantizationTag = /[-_.](?:i?q\d+(?:_[a-z0-9]+)*|bf16|f16|f32|mxfp4)$/i;

/** The name two files of one vision model share: lower case, no extension, no `mmproj` word, no quantisation tag. */
export function pairingStem(fileName: string): string {
    let stem = fileName.replace(/\.gguf$/i, "").toLowerCase();
    stem = stem.replace(/^mmproj[-_.]?/, "").replace(/[-_.]?mmproj$/, "").replace(/[-_.]mmproj[-_.]/, "-");
    while (quantizationTag.test(stem)) stem = stem.replace(quantizationTag, "");
    return stem;
}

/**
 * The name a catalog model's projector is saved under so that it pairs with the model: the catalog's own name, or
 * `mmproj-<file name>` when the model is saved under a name of the user's (`pull --name`, the app's download).
 */
export function projectorFileName(catalogName: string, modelSavedAs?: string): string {
    return modelSavedAs != null ? `mmproj-${modelSavedAs}` : catalogName;
}

/** Whether a file name says it is a projector (`mmproj` in it); the header decides where it can be read. */
export function namedAsProjector(fileName: string): boolean {
    return /mmproj/i.test(fileName);
}

/** For each model name, the projector name with the same stem (the first by name when several share it). */
export function pairProjectors(models: readonly string[], projectors: readonly string[]): Map<string, string> {
    const byStem = new Map<string, string>();
    for (const projector of [...projectors].sort()) if (!byStem.has(pairingStem(projector))) byStem.set(pairingStem(projector), projector);
    const pairs = new Map<string, string>();
    for (const model of models) {
        const projector = byStem.get(pairingStem(model));
        if (projector != null) pairs.set(model, projector);
    }
    return pairs;
}

/**
 * The projector paired with `modelPath` in its own folder, or undefined: `serve --model <file>` without `--mmproj`
 * serves a vision model with its projector when the folder holds one of the same stem, as the library pairs them
 * (ModelLibrary reads every header; here only the same-stem files are read, those named as projectors first). One
 * counts only when its header says it is a projector.
 */
export async function findProjectorFor(modelPath: string): Promise<string | undefined> {
    const folder = path.dirname(modelPath);
    const model = path.basename(modelPath);
    const names = await readdir(folder).catch(() => [] as string[]);
    const candidates = names.filter((name) => name.toLowerCase().endsWith(".gguf") && name !== model && pairingStem(name) === pairingStem(model))
        .sort((a, b) => Number(namedAsProjector(b)) - Number(namedAsProjector(a)) || a.localeCompare(b));
    for (const candidate of candidates) {
        const info = await readModelFileInfo(path.join(folder, candidate)).catch(() => undefined);
        if (info?.projector != null) return path.join(folder, candidate);
    }
    return undefined;
}
