import type {ChatCompletionChunk} from "../../../protocol/chat/types.ts";
import type {ChatDelta} from "../generateChatTurn.ts";

/**
 * A generation delta as the `delta` of a chat chunk (spec 6.1): reasoning, content, or one whole tool call under
 * its index, with its id, type, name and complete arguments (the call is sent once its arguments are done).
 */
export function toChunkDelta(delta: ChatDelta): ChatCompletionChunk["choices"][number]["delta"] {
    if (delta.toolCall == null) return delta.reasoning != null ? {reasoning: delta.reasoning} : {content: delta.content};
    const {index, id, type, function: fn} = delta.toolCall;
    return {tool_calls: [{index, id, type, function: {name: fn.name, arguments: fn.arguments}}]};
}
