import type {JsonBody} from "../../../client/sdk/index.ts";
import type {ChatReply} from "./replyTypes.ts";
import type {ToolCall} from "./types.ts";

/** A non-streamed chat completion (spec 2.2) in the reply shape the playground shows. */
export function replyFromCompletion(completion: JsonBody): ChatReply {
    const choices = (Array.isArray(completion.choices) ? completion.choices as JsonBody[] : []).map((choice, position) => {
        const message = (choice.message ?? {}) as JsonBody;
        return {
            index: typeof choice.index === "number" ? choice.index : position,
            content: typeof message.content === "string" ? message.content : "",
            reasoning: message.reasoning === null ? null : typeof message.reasoning === "string" ? message.reasoning : "",
            toolCalls: Array.isArray(message.tool_calls) ? message.tool_calls as ToolCall[] : [],
            finishReason: typeof choice.finish_reason === "string" ? choice.finish_reason : null
        };
    });
    return {
        id: typeof completion.id === "string" ? completion.id : undefined,
        model: typeof completion.model === "string" ? completion.model : undefined,
        choices,
        usage: completion.usage && typeof completion.usage === "object" ? completion.usage as JsonBody : undefined,
        chunks: 0
    };
}
