import {reasoningModelId} from "../../protocol/chat/reasoningModelId.ts";
import {modelIds} from "../../protocol/limits.ts";
import type {LocalEngine} from "../engine/LocalEngine.ts";
import {canThink} from "./reasoning/canThink.ts";

/** One model id of the chat family and the engine behind it, thinking by default or not (spec 2.6.1). */
export type ChatModelVariant = {id: string, reasoningByDefault: boolean, engine: LocalEngine};

/**
 * `svc-1` on the chat engine, plus the reasoning-by-default variant on the reasoning engine (its own model when
 * one was given for that role, else the chat model) when that model's chat format can think.
 */
export function chatModelVariants(chatEngine: LocalEngine, reasoningEngine: LocalEngine = chatEngine): ChatModelVariant[] {
    const general: ChatModelVariant = {id: modelIds.chat, reasoningByDefault: false, engine: chatEngine};
    return canThink(reasoningEngine.chatWrapper)
        ? [general, {id: reasoningModelId, reasoningByDefault: true, engine: reasoningEngine}]
        : [general];
}
