import type {ChatWrapper} from "node-llama-cpp";

/**
 * Whether the loaded model's chat format has a thought segment (e.g. `<think>...</think>`), so node-llama-cpp
 * can separate its working from its answer and budget it; only then is there a reasoning variant to serve.
 */
export function canThink(chatWrapper: ChatWrapper): boolean {
    return chatWrapper.settings.segments?.thought?.prefix != null;
}
