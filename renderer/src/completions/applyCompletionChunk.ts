import type {JsonBody} from "../../../client/index.ts";
import type {ChatReply} from "../chat/replyTypes.ts";

/**
 * Folds one legacy completion chunk (`choices[].text`) into the reply, or reads a whole non-streamed
 * completion when given one: the `text` of a full body is the whole answer, of a chunk a delta.
 */
export function applyCompletionChunk(reply: ChatReply, chunk: JsonBody): ChatReply {
    const choices = reply.choices.slice();
    for (const raw of Array.isArray(chunk.choices) ? chunk.choices as JsonBody[] : []) {
        const index = typeof raw.index === "number" ? raw.index : 0;
        const position = choices.findIndex((choice) => choice.index === index);
        const current = position >= 0 ? choices[position] : {index, content: "", reasoning: "", toolCalls: [], finishReason: null};
        const next = {...current, content: current.content + (typeof raw.text === "string" ? raw.text : "")};
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
