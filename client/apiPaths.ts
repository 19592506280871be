import {modelIds} from "../protocol/limits.ts";

/** Endpoint paths under the service root (spec §4): the model segment comes before `/v1`. */
export const apiPaths = {
    chatCompletions: `/${modelIds.chat}/v1/chat/completions`,
    responses: `/${modelIds.chat}/v1/responses`,
    completions: `/${modelIds.chat}/v1/completions`,
    models: `/${modelIds.chat}/v1/models`,
    decisions: `/${modelIds.decision}/v1/decisions`,
    systemone: `/${modelIds.decision}/v1/systemone`
} as const;
