import {reasoningModelId} from "../../protocol/chat/reasoningModelId.ts";
import {modelIds} from "../../protocol/limits.ts";
import {catalog} from "../models/catalog.ts";
import {ModelLibrary} from "../models/ModelLibrary.ts";
import type {ModelRole} from "../models/modelRoles.ts";
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
    // Roles assigned in the library serve their own model unless the command line names one.
    const notes: string[] = [];
    const roleModel = async (role: ModelRole, given: string | undefined) => {
        if (given != null) return given;
        const assigned = await library.modelForRole(role);
        if (assigned == null || assigned.id === chosen.id) return undefined;
        notes.push(`${assigned.id} for ${role}`);
        return assigned.path;
    };
    const decisionModelPath = await roleModel(modelIds.decision, args.decisionModelPath);
    const reasoningModelPath = await roleModel(reasoningModelId, args.reasoningModelPath);
    return {
        options: {...rest, modelPath: chosen.path, decisionModelPath, reasoningModelPath},
        note: [`model library ${library.dir}: serving ${chosen.id} (default model)`, ...notes].join(", ")
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
