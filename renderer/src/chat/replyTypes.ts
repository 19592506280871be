import type {ToolCall} from "./types.ts";

export type ChoiceState = {
    index: number,
    content: string,
    /** Separated reasoning (spec 2.6); null when the server sent `reasoning: null` (include_reasoning false). */
    reasoning: string | null,
    toolCalls: ToolCall[],
    finishReason: string | null
};

export type Usage = Record<string, unknown>;

/** A chat or legacy completion reply, the same shape whether it was streamed or not. */
export type ChatReply = {
    id?: string,
    model?: string,
    choices: ChoiceState[],
    usage?: Usage,
    /** Chunks received (streams only); shows the stream is alive. */
    chunks: number
};

export const emptyReply = (): ChatReply => ({choices: [], chunks: 0});
