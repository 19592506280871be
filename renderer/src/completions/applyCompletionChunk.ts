import type {JsonBody} from "../../../client/sdk/index.ts";
import type {ChatReply} from "../chat/replyTypes.ts";
import {foldStreamChunk} from "../chat/utils/foldStreamChunk.ts";

/**
 * Folds one legacy completion chunk (`choices[].text`) into the reply, or reads a whole non-streamed
 * completion when given one: the `text` of a full body is the whole answer, of a chunk a delta.
 */
export function applyCompletionChunk(reply: ChatReply, chunk: JsonBody): ChatReply {
    return foldStreamChunk(reply, chunk, (choice, raw) => ({...choice, content: choice.content + (typeof raw.text === "string" ? raw.text : "")}));
}
