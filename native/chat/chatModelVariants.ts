import type {ChatWrapper} from "node-llama-cpp";
import {reasoningModelId} from "../../protocol/chat/reasoningModelId.ts";
import {modelIds} from "../../protocol/limits.ts";
import {canThink} from "./reasoning/canThink.ts";

/** One model id of the chat family: the same loaded model, thinking by default or not (spec 2.6.1). */
export type ChatModelVariant = {id: string, reasoningByDefault: boolean};

/** `svc-1`, plus the reasoning-by-default variant when the loaded model's chat format can think. */
export function chatModelVariants(chatWrapper: ChatWrapper): ChatModelVariant[] {
    const general: ChatModelVariant = {id: modelIds.chat, reasoningByDefault: false};
    return canThink(chatWrapper) ? [general, {id: reasoningModelId, reasoningByDefault: true}] : [general];
}
