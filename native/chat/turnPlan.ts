import type {ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaModel, Token, LlamaGrammar, LlamaText} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import type {FieldPath, SamplingParams} from "../../protocol/validation.ts";
import type {ChatMessage, ChatTool, ChatToolChoice, ResponseFormat} from "../../protocol/chat/types.ts";
import {checkOutputBudget, type LocalEngine, type OutputWindow, tokenizeForWindow} from "../engine/LocalEngine.ts";
import {fewestTokens, promptPieces, textBytes, tokenizePieces, type TokenBudget} from "../engine/promptTokens.ts";
import type {ChatModelVariant} from "./routes.ts";
import type {ChatTurnResult} from "./turnRun.ts";
import {checkJsonReply, createJsonGrammar, withFormatInstruction, compileJsonSchema} from "./jsonMode.ts";
import {resolveThinking, type ReasoningControls, thinkingOverhead, withThinkingOff} from "./reasoning.ts";
import {checkToolCalls, createForcedCallChatWrapper, toModelFunctions} from "./tools.ts";
import {toChatHistory} from "./history.ts";

/**
 * No attempt produced JSON that keeps the `response_format` contract (spec 2.7.5). It carries the output tokens
 * those attempts spent, because the 400 reports them in `usage` and they are charged.
 */
export class UnsatisfiedFormatError extends Error {
    public readonly completionTokens: number;
    public readonly reasoningTokens: number;

    public constructor(reason: string, {completionTokens, reasoningTokens}: {completionTokens: number, reasoningTokens: number}) {
        super(`response_format could not be satisfied: ${reason}`);
        this.name = "UnsatisfiedFormatError";
        this.completionTokens = completionTokens;
        this.reasoningTokens = reasoningTokens;
    }
}

/** The text LlamaChat will evaluate for this history, rendered by the same chat wrapper before generation. */
function chatContextText(chatWrapper: ChatWrapper, history: ChatHistoryItem[], functions?: ChatModelFunctions): LlamaText {
    return chatWrapper.generateContextState({chatHistory: history, availableFunctions: functions}).contextText;
}

/** The tokens LlamaChat will evaluate for this history, so the window can be checked and `prompt_tokens` reported exactly. */
export function renderChatPrompt(model: LlamaModel, chatWrapper: ChatWrapper, history: ChatHistoryItem[], functions?: ChatModelFunctions): Token[] {
    return chatContextText(chatWrapper, history, functions).tokenize(model.tokenizer);
}

/** renderChatPrompt for a request: long text tokenized in chunks that yield to other clients, stopping past `budget.limit`. */
export function tokenizeChatPrompt(model: LlamaModel, chatWrapper: ChatWrapper, history: ChatHistoryItem[], functions: ChatModelFunctions | undefined,
    budget: TokenBudget): Promise<Token[]> {
    return tokenizePieces(model, promptPieces(chatContextText(chatWrapper, history, functions)), budget);
}

/**
 * The client's message text, each trimmed (a template may trim it), as the rendered prompt holds it verbatim: its
 * bytes bound the prompt's tokens from below. Tool-call arguments and results are left out, as they are parsed and
 * re-serialised, which can shrink them.
 */
function* verbatimTexts(messages: ChatMessage[]): Generator<string> {
    for (const message of messages) {
        if (message.role === "tool") continue;
        if (typeof message.content === "string") yield message.content.trim();
        else for (const part of message.content ?? []) if (part.type === "text") yield part.text.trim();
    }
}

/**
 * node-llama-cpp cannot read images, so a request with image parts (already checked to be inline images by the
 * parsers) that reaches the text engine is refused with a clear 400 rather than answered as if the image were not
 * there. With a vision projector loaded, such turns never get here: native/vision/visionTurn.ts takes them.
 */
export function refuseImageParts(messages: ChatMessage[]) {
    const images = messages.reduce((count, message) =>
        count + (Array.isArray(message.content) ? message.content.filter((part) => part.type === "image_url").length : 0), 0);
    if (images > 0)
        throw new ApiError(400, "invalid_request",
            `the request holds ${images === 1 ? "an image" : `${images} images`}, but the loaded model cannot read images; send text only`);
}

/** What chat completions and Responses both ask of one assistant turn, after their own parsing. */
export type ChatTurnRequest = SamplingParams & ReasoningControls & {
    messages: ChatMessage[],
    /** The requested output budget; Infinity with `maxTokensExplicit` false means "whatever the window leaves". */
    maxTokens: number,
    maxTokensExplicit: boolean,
    /** The budget field's name, for the errors of spec 7. */
    budgetField: string,
    tools?: ChatTool[],
    tool_choice?: ChatToolChoice,
    /** Where tool `index`'s `parameters` sit in the request body, for the 400 naming them (chat nests them). */
    toolParametersPath?(index: number): FieldPath,
    response_format?: ResponseFormat
};

/** One way of generating the turn; a plan tries them in order until one keeps the request's contract. */
export type ChatAttempt = {
    chatWrapper: ChatWrapper,
    history: ChatHistoryItem[],
    functions?: ChatModelFunctions,
    grammar?: LlamaGrammar,
    thoughtBudget?: number,
    /** The model may think in this attempt (it then reads more than the rendered prompt). */
    thinks?: boolean,
    /** Why a finished result breaks the contract (JSON mode, forced tool call), or undefined when it keeps it. */
    check?(result: ChatTurnResult): string | undefined
};

export type ChatTurnPlan = {
    /** Tokens of the first attempt's rendered prompt: what the sequence is leased for. */
    prompt: Token[],
    /** What the first attempt reads as input, as `prompt_tokens` reports it. */
    promptTokens: number,
    maxTokens: number,
    attempts: ChatAttempt[],
    /** JSON mode answers 400 when no attempt conforms (spec 2.7.5); a forced call that never validates is kept. */
    failWhenUnsatisfied: boolean
};

/** JSON mode and forced calls get this many generations before the request gives up (spec 2.7.6). */
const maxAttempts = 3;

/**
 * Everything decided before a sequence is leased: refusals (images, invalid schemas, effort on the general
 * model), the history in the model's format, the window check (spec 7, causes 2, 3, 7) and the attempts:
 * - a forced `tool_choice` generates straight into the call grammar (spec 2.5), its arguments validated;
 * - `response_format` generates under a JSON grammar (2.7), except that with callable tools the model first
 *   answers freely, so a tool call takes precedence (2.7.9);
 * - otherwise one free generation, thinking as the variant and the request say (2.6).
 * Forced calls and JSON grammars never think: the grammar would constrain the thought as well.
 */
export async function planChatTurn(engine: LocalEngine, variant: ChatModelVariant, request: ChatTurnRequest, signal?: AbortSignal): Promise<ChatTurnPlan> {
    refuseImageParts(request.messages);
    const window: OutputWindow = {budget: request.maxTokens, explicit: request.maxTokensExplicit, contextSize: engine.context.contextSize, field: request.budgetField};
    // Refused from the byte count alone when even the fewest tokens it could take cannot fit.
    checkOutputBudget({...window, promptTokens: fewestTokens(engine.model, textBytes(verbatimTexts(request.messages))), atLeast: true});
    const chatWrapper = engine.chatWrapper;
    const thinking = resolveThinking(request, variant, chatWrapper);
    const format = request.response_format?.type === "text" ? undefined : request.response_format;
    const validateJson = format?.type === "json_schema"
        ? compileJsonSchema(format.json_schema.schema ?? {}, ["response_format", "json_schema", "schema"])
        : undefined;
    const parametersPath = request.toolParametersPath ?? ((index) => ["tools", index, "function", "parameters"]);
    const validateArguments = new Map((request.tools ?? []).map((tool, index) => [tool.function.name,
        tool.function.parameters != null ? compileJsonSchema(tool.function.parameters, parametersPath(index)) : undefined]));

    const choice = request.tool_choice ?? "auto";
    const callable = choice === "none" ? [] : request.tools ?? [];
    const functions = callable.length > 0 ? toModelFunctions(callable) : undefined;
    const history = withFormatInstruction(toChatHistory(request.messages), format);
    const quietHistory = thinking.capable ? withThinkingOff(history) : history;
    const freeHistory = thinking.enabled ? history : quietHistory;
    const quietBudget = thinking.capable ? 0 : undefined;

    const forcedCall = functions != null && (choice === "required" || typeof choice === "object");
    let attempts: ChatAttempt[];
    if (forcedCall) {
        const allowed = typeof choice === "object" ? {[choice.function.name]: functions[choice.function.name]} : functions;
        const forced: ChatAttempt = {
            chatWrapper: createForcedCallChatWrapper(chatWrapper, functions),
            history: quietHistory,
            functions: allowed,
            thoughtBudget: quietBudget,
            check: (result) => checkToolCalls(result, validateArguments)
        };
        attempts = Array(maxAttempts).fill(forced);
    } else if (format != null) {
        const constrained: ChatAttempt = {
            chatWrapper,
            history: quietHistory,
            grammar: await createJsonGrammar(engine.llama, format.type === "json_schema" ? format.json_schema.schema ?? {} : undefined),
            thoughtBudget: quietBudget,
            check: (result) => checkJsonReply(result.content, validateJson)
        };
        const free: ChatAttempt = {
            chatWrapper,
            history: freeHistory,
            functions,
            thinks: thinking.enabled,
            check: (result) => result.toolCalls.length > 0 ? undefined : checkJsonReply(result.content, validateJson)
        };
        attempts = functions != null ? [free, ...Array(maxAttempts - 1).fill(constrained)] : Array(maxAttempts).fill(constrained);
    } else
        attempts = [{chatWrapper, history: freeHistory, functions, thinks: thinking.enabled}];

    // Every distinct attempt must fit the window with the budget, as any of them may run; a thinking attempt
    // also reads the thought prefix and suffix node-llama-cpp injects.
    const overhead = thinkingOverhead(chatWrapper, engine.model.tokenizer);
    const distinct = [...new Set(attempts)];
    // The attempts render the same long messages: each long text is tokenized once (memo) for all of them.
    const memo: TokenBudget["memo"] = new Map();
    const prompts = await tokenizeForWindow(window, async (limit) => {
        const tokenized: Token[][] = [];
        for (const attempt of distinct)
            tokenized.push(await tokenizeChatPrompt(engine.model, attempt.chatWrapper, attempt.history, attempt.functions, {limit, signal, memo}));
        return tokenized;
    });
    // The prefix is injected only into an empty model turn (not after tool results, where the turn continues).
    const last = history.at(-1);
    const prefix = last?.type === "model" && last.response.length === 0 ? overhead.prefix : 0;
    const reads = distinct.map((attempt, index) => prompts[index].length + (attempt.thinks ? prefix + overhead.suffix : 0));
    const maxTokens = checkOutputBudget({...window, promptTokens: Math.max(...reads)});
    const thoughtBudget = thinking.capable ? thinking.budget(maxTokens) : undefined;
    return {
        prompt: prompts[0],
        promptTokens: prompts[0].length + (attempts[0].thinks ? prefix : 0),
        maxTokens,
        attempts: attempts.map((attempt) => attempt.thoughtBudget !== undefined ? attempt : {...attempt, thoughtBudget}),
        failWhenUnsatisfied: format != null && !forcedCall
    };
}
