import type {JsonBody} from "../../../client/sdk/index.ts";
import {completionsParamSpecs} from "../params/completionsParamSpecs.ts";
import {readParams} from "../params/readParams.ts";
import type {CompletionsDraft} from "./types.ts";

/** Rebuilds the completions draft from a stored request body. */
export function draftFromCompletionsRequest(body: JsonBody): CompletionsDraft {
    const prompt = typeof body.prompt === "string" ? body.prompt : Array.isArray(body.prompt) ? String(body.prompt[0] ?? "") : "";
    return {prompt, params: readParams(completionsParamSpecs, body)};
}
