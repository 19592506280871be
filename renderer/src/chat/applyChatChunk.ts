import type {JsonBody} from "../../../client/sdk/index.ts";
import type {ChatReply, ChoiceState} from "./replyTypes.ts";
import {foldStreamChunk} from "./utils/foldStreamChunk.ts";

type ToolCallDelta = {index?: number, id?: string, type?: string, function?: {name?: string, arguments?: string}};

/**
 * Folds one chat stream chunk (spec 6.1) into the reply: content and reasoning deltas are appended per
 * choice, tool-call fragments are joined by their index, and a chunk with `usage` (the last one when
 * `include_usage` is on) sets the usage. Returns a new reply; the input is not changed.
 */
export function applyChatChunk(reply: ChatReply, chunk: JsonBody): ChatReply {
    return foldStreamChunk(reply, chunk, (choice, raw) => applyDelta(choice, (raw.delta ?? {}) as JsonBody));
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
