import {LlamaChat, LlamaJsonSchemaValidationError, type ChatHistoryItem, type ChatModelFunctions, type ChatWrapper, type LlamaChatResponseChunk, type LlamaGrammar} from "node-llama-cpp";
import type {ChatToolCall, FinishReason, SamplingParams} from "../../protocol/chat/types.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {makeId} from "../engine/utils/makeId.ts";
import {toGenerationOptions} from "../engine/utils/toGenerationOptions.ts";

export type ChatDelta = {content?: string, reasoning?: string, toolCall?: ChatToolCall & {index: number}};

export type ChatTurnResult = {
    content: string,
    reasoning: string,
    /** Calls the model made, with ids; when there are any the finish reason is `tool_calls`. */
    toolCalls: ChatToolCall[],
    finishReason: FinishReason,
    completionTokens: number,
    /** Output tokens generated inside the thought segment (part of `completionTokens`). */
    reasoningTokens: number,
    /** Set when the model's call broke its own parameter schema (node-llama-cpp refused it): no call is returned. */
    invalidToolCall?: string
};

export type ChatTurnOptions = {
    lease: SequenceLease,
    chatWrapper: ChatWrapper,
    history: ChatHistoryItem[],
    maxTokens: number,
    sampling: SamplingParams,
    choiceIndex: number,
    signal: AbortSignal,
    onDelta?: (delta: ChatDelta) => void,
    /** Functions the model may call; mutually exclusive with `grammar` (a node-llama-cpp limit). */
    functions?: ChatModelFunctions,
    /** Constrains every generated token (JSON mode). */
    grammar?: LlamaGrammar,
    /** Cap on thought tokens; leave undefined for a chat format without thoughts. */
    thoughtBudget?: number
};

/** One assistant turn on a leased sequence: generation, the stream of deltas, and its own token count. */
export async function generateChatTurn(options: ChatTurnOptions): Promise<ChatTurnResult> {
    const {lease, chatWrapper, history, maxTokens, sampling, choiceIndex, signal, onDelta, functions, grammar, thoughtBudget} = options;
    const chat = new LlamaChat({contextSequence: lease.sequence, chatWrapper});
    const outputBefore = lease.sequence.tokenMeter.usedOutputTokens;
    const spent = () => lease.sequence.tokenMeter.usedOutputTokens - outputBefore;
    let reasoning = "";
    let reasoningTokens = 0;
    let thoughtEnded = false;
    const toolCalls: ChatToolCall[] = [];
    const common = {
        ...toGenerationOptions(sampling, {choiceIndex}),
        maxTokens,
        signal,
        stopOnAbortSignal: true,
        // The window check already fits prompt and budget into the context, so nothing should ever be shifted
        // out: with the default 10% shift size, LlamaChat would drop the start of a prompt that leaves exactly one
        // free token (prompt = window - 1, max_tokens 1); with size 1 that prompt is kept whole (spec 7.3).
        contextShift: {size: 1},
        // Always explicit: node-llama-cpp's own default caps thoughts at half or 75% of the context.
        budgets: thoughtBudget != null ? {thoughtTokens: thoughtBudget} : undefined,
        onResponseChunk(chunk: LlamaChatResponseChunk) {
            if (chunk.type === "segment") {
                if (chunk.segmentType !== "thought") return;
                reasoningTokens += chunk.tokens.length;
                if (chunk.segmentEndTime != null) thoughtEnded = true;
                if (chunk.text === "") return;
                reasoning += chunk.text;
                onDelta?.({reasoning: chunk.text});
            } else if (chunk.text !== "") onDelta?.({content: chunk.text});
        }
    };
    try {
        const result = grammar != null
            ? await chat.generateResponse(history, {...common, grammar})
            : await chat.generateResponse(history, {
                ...common,
                functions,
                onFunctionCall(call) {
                    const toolCall: ChatToolCall = {
                        id: makeId("call"),
                        type: "function",
                        function: {name: call.functionName, arguments: JSON.stringify(call.params ?? {})}
                    };
                    toolCalls.push(toolCall);
                    onDelta?.({toolCall: {...toolCall, index: toolCalls.length - 1}});
                }
            }).catch((error: unknown) => {
                // The parameter grammar and node-llama-cpp's own check of the parsed call can disagree (string
                // lengths count escapes differently): such a call is dropped, and a forced turn tries again.
                if (error instanceof LlamaJsonSchemaValidationError) return error;
                throw error;
            });
        if (result instanceof LlamaJsonSchemaValidationError)
            return {content: "", reasoning, toolCalls: [], finishReason: "stop", completionTokens: spent(), reasoningTokens, invalidToolCall: result.message};
        const stopReason = result.metadata.stopReason;
        const completionTokens = spent();
        // A turn that never left its thought spent every output token thinking, including the last few that
        // node-llama-cpp holds back as an unfinished character and never emits as a chunk.
        const allThought = reasoningTokens > 0 && !thoughtEnded && result.response === "" && toolCalls.length === 0;
        return {
            content: result.response,
            reasoning,
            toolCalls,
            finishReason: toolCalls.length > 0 && stopReason === "functionCalls" ? "tool_calls" : stopReason === "maxTokens" ? "length" : "stop",
            completionTokens,
            reasoningTokens: allThought ? completionTokens : reasoningTokens
        };
    } finally {
        chat.dispose({disposeSequence: false});
    }
}
