import type {LibraryModel, ModelsState} from "../types.ts";

/** The engine has this model loaded (or is loading it): it cannot be deleted until the engine stops. */
export function isModelInUse(model: LibraryModel, active: ModelsState["active"]): boolean {
    return active.modelId === model.id && (active.status === "running" || active.status === "starting");
}
