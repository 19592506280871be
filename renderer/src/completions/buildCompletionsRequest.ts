import type {JsonBody} from "../../../client/sdk/index.ts";
import {modelIds} from "../../../protocol/limits.ts";
import {applyParams} from "../params/applyParams.ts";
import {completionsParamSpecs} from "../params/completionsParamSpecs.ts";
import type {CompletionsDraft} from "./types.ts";

/** The legacy `POST /completions` body for the playground's draft. */
export function buildCompletionsRequest(draft: CompletionsDraft): JsonBody {
    return applyParams(completionsParamSpecs, draft.params, {model: modelIds.chat, prompt: draft.prompt});
}
