import {modelIds} from "../../protocol/limits.ts";
import {catalog} from "../models/catalog.ts";
import {ModelLibrary} from "../models/ModelLibrary.ts";
import type {ServerOptions} from "../server/startServer.ts";
import type {ServeArgs} from "./parseServeArgs.ts";

/** `serve` without `--model` and an empty library: its message says exactly how to get a model. */
export class NoModelError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "NoModelError";
    }
}

/**
 * The model to serve: `--model`, else the library's default model (and its `svc-1-decision` model when one is
 * assigned and no `--decision-model` is given). `note` says which library model was chosen.
 */
export async function resolveServeModel(args: ServeArgs): Promise<{options: ServerOptions, note?: string}> {
    const {modelsDir, modelPath, ...rest} = args;
    if (modelPath != null) return {options: {...rest, modelPath}};
    const library = new ModelLibrary(modelsDir);
    const chosen = await library.defaultModel();
    if (chosen == null) throw new NoModelError(noModelMessage(library.dir));
    const decision = args.decisionModelPath == null ? await library.modelForRole(modelIds.decision) : undefined;
    const decisionModelPath = args.decisionModelPath ?? (decision != null && decision.id !== chosen.id ? decision.path : undefined);
    return {
        options: {...rest, modelPath: chosen.path, decisionModelPath},
        note: `model library ${library.dir}: serving ${chosen.id} (default model)` +
            (decision != null && decisionModelPath === decision.path ? `, ${decision.id} for ${modelIds.decision}` : "")
    };
}

export function noModelMessage(dir: string): string {
    const width = Math.max(...catalog.map((model) => model.uri.length));
    return [
        `no model to serve: pass --model <file.gguf>, or download one into the model library (${dir}):`,
        ...catalog.map((model) => `  npm run pull -- ${model.uri.padEnd(width)}   # ${model.name}, ${model.sizeLabel}, for ${model.roles.join(", ")}`),
        "then run serve again: the first model pulled becomes the default (list the library with: svc-studio models)."
    ].join("\n");
}
