// The legacy completions playground's model: the prompt draft, its request, and its chunks folded into a chat-shaped reply.
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {type ChatReply, foldStreamChunk} from "./chat.ts";
import {type ParamValues, applyParams, completionsParamSpecs, readParams} from "./params.ts";

export type CompletionsDraft = {prompt: string, params: ParamValues};

/**
 * Folds one legacy completion chunk (`choices[].text`) into the reply, or reads a whole non-streamed
 * completion when given one: the `text` of a full body is the whole answer, of a chunk a delta.
 */
export function applyCompletionChunk(reply: ChatReply, chunk: JsonBody): ChatReply {
    return foldStreamChunk(reply, chunk, (choice, raw) => ({...choice, content: choice.content + (typeof raw.text === "string" ? raw.text : "")}));
}

/** The legacy `POST /completions` body for the playground's draft. */
export function buildCompletionsRequest(draft: CompletionsDraft): JsonBody {
    return applyParams(completionsParamSpecs, draft.params, {model: modelIds.chat, prompt: draft.prompt});
}

/** Alternatives per token when scoring a text whose draft sets no `logprobs`: enough for the popover to compare. */
export const defaultScoringAlternatives = 5;

/**
 * "Score this text": the draft's request turned into OpenAI's prompt scoring, `max_tokens: 0` with `echo` and
 * `logprobs`, so the reply is the prompt with each of its tokens scored and nothing generated.
 */
export function buildScoreRequest(draft: CompletionsDraft): JsonBody {
    const body = buildCompletionsRequest(draft);
    return {...body, max_tokens: 0, echo: true, logprobs: typeof body.logprobs === "number" ? body.logprobs : defaultScoringAlternatives};
}

/** Whether a sent request was a prompt scoring (buildScoreRequest), which the reply view titles differently. */
export const isScoreRequest = (body: JsonBody | undefined) => body?.max_tokens === 0 && body.echo === true;

/** Rebuilds the completions draft from a stored request body. */
export function draftFromCompletionsRequest(body: JsonBody): CompletionsDraft {
    const prompt = typeof body.prompt === "string" ? body.prompt : Array.isArray(body.prompt) ? String(body.prompt[0] ?? "") : "";
    return {prompt, params: readParams(completionsParamSpecs, body)};
}
