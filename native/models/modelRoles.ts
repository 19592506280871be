import {reasoningModelId} from "../../protocol/chat/reasoningModelId.ts";
import {modelIds} from "../../protocol/limits.ts";

/** The model ids a library model can be assigned to serve; `svc-1` is the library's default model. */
export const modelRoles = [modelIds.chat, reasoningModelId, modelIds.decision] as const;

export type ModelRole = typeof modelRoles[number];

export function isModelRole(value: string): value is ModelRole {
    return (modelRoles as readonly string[]).includes(value);
}
