import type {JsonBody} from "../../../../client/sdk/index.ts";
import type {ChatReply, ChoiceState} from "../replyTypes.ts";

/**
 * The part chat and legacy completion streams share: each `choices[]` entry updates the choice of its index
 * (created on first sight) through `applyChoice`, `finish_reason` is kept, and the chunk's id, model and usage
 * fill the reply. Returns a new reply; the input is not changed.
 */
export function foldStreamChunk(reply: ChatReply, chunk: JsonBody, applyChoice: (choice: ChoiceState, raw: JsonBody) => ChoiceState): ChatReply {
    const choices = reply.choices.slice();
    for (const raw of Array.isArray(chunk.choices) ? chunk.choices as JsonBody[] : []) {
        const index = typeof raw.index === "number" ? raw.index : 0;
        const position = choices.findIndex((choice) => choice.index === index);
        const current: ChoiceState = position >= 0 ? choices[position] : {index, content: "", reasoning: "", toolCalls: [], finishReason: null};
        const next = applyChoice(current, raw);
        if (typeof raw.finish_reason === "string") next.finishReason = raw.finish_reason;
        if (position >= 0) choices[position] = next;
        else choices.push(next);
    }
    choices.sort((a, b) => a.index - b.index);
    return {
        id: reply.id ?? (typeof chunk.id === "string" ? chunk.id : undefined),
        model: reply.model ?? (typeof chunk.model === "string" ? chunk.model : undefined),
        choices,
        usage: chunk.usage && typeof chunk.usage === "object" ? chunk.usage as JsonBody : reply.usage,
        chunks: reply.chunks + 1
    };
}
