import type {ModelsState} from "../types.ts";

/** Something is moving that the screen should follow closely: a download, or the engine coming up. */
export function isBusy(state: ModelsState): boolean {
    return state.downloads.some((job) => job.status === "downloading") || state.active.status === "starting";
}
