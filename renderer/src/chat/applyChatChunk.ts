import type {JsonBody} from "../../../client/index.ts";
import type {ChatReply, ChoiceState} from "./replyTypes.ts";

type ToolCallDelta = {index?: number, id?: string, type?: string, function?: {name?: string, arguments?: string}};

/**
 * Folds one chat stream chunk (spec 6.1) into the reply: content and reasoning deltas are appended per
 * choice, tool-call fragments are joined by their index, and a chunk with `usage` (the last one when
 * `include_usage` is on) sets the usage. Returns a new reply; the input is not changed.
 */
export function applyChatChunk(reply: ChatReply, chunk: JsonBody): ChatReply {
    const choices = reply.choices.slice();
    for (const raw of Array.isArray(chunk.choices) ? chunk.choices as JsonBody[] : []) {
        const index = typeof raw.index === "number" ? raw.index : 0;
        const position = choices.findIndex((choice) => choice.index === index);
        const current: ChoiceState = position >= 0 ? choices[position] : {index, content: "", reasoning: "", toolCalls: [], finishReason: null};
        const next = applyDelta(current, (raw.delta ?? {}) as JsonBody);
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

function applyDelta(choice: ChoiceState, delta: JsonBody): ChoiceState {
    const next: ChoiceState = {...choice, toolCalls: choice.toolCalls.slice()};
    if (typeof delta.content === "string") next.content += delta.content;
    if (typeof delta.reasoning === "string") next.reasoning = (next.reasoning ?? "") + delta.reasoning;
    else if (delta.reasoning === null && next.reasoning === "") next.reasoning = null;
    if (Array.isArray(delta.tool_calls)) for (const fragment of delta.tool_calls as ToolCallDelta[]) joinToolCall(next, fragment);
    return next;
}

function joinToolCall(choice: ChoiceState, fragment: ToolCallDelta) {
    const index = fragment.index ?? choice.toolCalls.length;
    const existing = choice.toolCalls[index];
    const call = existing
        ? {...existing, function: {...existing.function}}
        : {id: "", type: "function" as const, function: {name: "", arguments: ""}};
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.function.name += fragment.function.name;
    if (fragment.function?.arguments) call.function.arguments += fragment.function.arguments;
    choice.toolCalls[index] = call;
}
