import {ApiError} from "../../protocol/errors.ts";
import type {ChatToolCall, FinishReason} from "../../protocol/chat/types.ts";
import {type LocalEngine, makeId, toGenerationOptions} from "../engine/LocalEngine.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {type ChatModelVariant, chatUsage} from "./routes.ts";
import {planChatTurn, type ChatTurnPlan, type ChatTurnRequest, UnsatisfiedFormatError} from "./turnPlan.ts";
import {canThink} from "../library/modelFile.ts";
import {LlamaChat, LlamaJsonSchemaValidationError, type ChatHistoryItem, type ChatModelFunctions, type ChatWrapper, type LlamaChatResponseChunk, type LlamaGrammar, type Token, type TokenBias} from "node-llama-cpp";
import type {SamplingParams} from "../../protocol/validation.ts";
import type {CompletionUsage} from "../../protocol/completions.ts";
import type {TokenLogprob} from "../../protocol/logprobs.ts";
import {locateOutputTokens, recordTokenLogprobs, scoreTokens, toTokenLogprobs} from "../engine/tokenProbabilities.ts";

/** What chat completions and Responses answer from: a text turn (ChatTurnSession) or a turn with images (native/vision). */
export type TurnSession = Pick<ChatTurnSession, "run" | "usage" | "release">;

/**
 * One request's assistant turn on the local engine, shared by chat completions and Responses: the plan, the
 * leased sequence, the choices generated on it and the usage they add up to.
 */
export class ChatTurnSession {
    public readonly plan: ChatTurnPlan;
    private readonly engine: LocalEngine;
    private readonly lease: SequenceLease;
    private readonly signal: AbortSignal;
    private completionTokens = 0;
    private reasoningTokens = 0;

    private constructor(engine: LocalEngine, plan: ChatTurnPlan, lease: SequenceLease, signal: AbortSignal) {
        this.engine = engine;
        this.plan = plan;
        this.lease = lease;
        this.signal = signal;
    }

    /** Plans the turn (every 400 is raised here, before any waiting) and leases a sequence for it. */
    public static async open(engine: LocalEngine, variant: ChatModelVariant, request: ChatTurnRequest, signal: AbortSignal): Promise<ChatTurnSession> {
        const plan = await planChatTurn(engine, variant, request, signal);
        const lease = await engine.scheduler.acquire(plan.prompt, signal);
        return new ChatTurnSession(engine, plan, lease, signal);
    }

    /**
     * Generates choice `choiceIndex`. A JSON-mode turn that cannot be satisfied becomes the 400 of spec 2.7.5,
     * carrying the usage of everything generated for the request so far.
     */
    public async run(choiceIndex: number, sampling: SamplingParams, onDelta?: (delta: ChatDelta) => void, scoring: TokenScoring = {}): Promise<ChatTurnResult> {
        try {
            const result = await runChatChoice(this.plan, {lease: this.lease, sampling, choiceIndex, signal: this.signal, onDelta, ...scoring});
            this.count(result);
            return result;
        } catch (error) {
            if (!(error instanceof UnsatisfiedFormatError)) throw error;
            this.count(error);
            throw new ApiError(400, "invalid_request", error.message, {usage: this.usage()});
        }
    }

    public usage(): CompletionUsage {
        return chatUsage({
            promptTokens: this.plan.promptTokens,
            reusablePrefix: this.lease.reusablePrefix,
            completionTokens: this.completionTokens,
            reasoningTokens: this.reasoningTokens,
            canThink: canThink(this.engine.chatWrapper)
        });
    }

    public release() {
        this.lease.release();
    }

    private count(spent: {completionTokens: number, reasoningTokens: number}) {
        this.completionTokens += spent.completionTokens;
        this.reasoningTokens += spent.reasoningTokens;
    }
}

/**
 * What a request asks of token probabilities: alternatives per scored token (undefined: none), logit_bias, and
 * whether the scores carry token ids (the local-only `x_svc.token_ids`).
 */
export type TokenScoring = {topLogprobs?: number, tokenBias?: TokenBias, tokenIds?: boolean};

export type ChatChoiceOptions = TokenScoring & {
    lease: SequenceLease,
    sampling: SamplingParams,
    choiceIndex: number,
    signal: AbortSignal,
    /** Streams the first attempt; plans with more than one attempt are never streamed (spec 2.5.2, 2.7.8). */
    onDelta?: (delta: ChatDelta) => void
};

/**
 * Generates one choice by the plan's attempts, in order, until one keeps the request's contract. The result
 * counts the tokens of every attempt (spec 2.3.5: regenerations are reported and charged). A reply cut by the
 * budget is returned as it is, since another attempt would be cut the same way (spec 2.7.7).
 */
export async function runChatChoice(plan: ChatTurnPlan, {lease, sampling, choiceIndex, signal, onDelta, topLogprobs, tokenBias, tokenIds}: ChatChoiceOptions): Promise<ChatTurnResult> {
    let completionTokens = 0;
    let reasoningTokens = 0;
    let last: ChatTurnResult | undefined;
    let problem: string | undefined;
    for (const [attemptIndex, attempt] of plan.attempts.entries()) {
        const result = await generateChatTurn({
            lease,
            chatWrapper: attempt.chatWrapper,
            history: attempt.history,
            maxTokens: plan.maxTokens,
            sampling: attemptIndex === 0 ? sampling : resample(sampling, attemptIndex),
            choiceIndex,
            signal,
            onDelta: attemptIndex === 0 ? onDelta : undefined,
            functions: attempt.functions,
            grammar: attempt.grammar,
            thoughtBudget: attempt.thoughtBudget,
            topLogprobs,
            tokenBias,
            tokenIds
        });
        completionTokens += result.completionTokens;
        reasoningTokens += result.reasoningTokens;
        last = {...result, completionTokens, reasoningTokens};
        if (result.finishReason === "length" || signal.aborted) return last;
        problem = attempt.check?.(result);
        if (problem == null) return last;
    }
    if (plan.failWhenUnsatisfied)
        throw new UnsatisfiedFormatError(`${problem} (after ${plan.attempts.length} attempts)`, {completionTokens, reasoningTokens});
    return last!;
}

/**
 * A regeneration must be able to differ from the reply it replaces: greedy decoding would repeat it, so
 * retries sample at a temperature of at least 0.7, and a seeded request moves to another fixed seed.
 */
function resample(sampling: SamplingParams, attemptIndex: number): SamplingParams {
    return {
        ...sampling,
        temperature: Math.max(sampling.temperature ?? 1, 0.7),
        seed: sampling.seed != null ? sampling.seed + attemptIndex * 7919 : undefined
    };
}

/** A streamed piece of a choice; `logprobs` scores the tokens of a content delta when the request asked for them. */
export type ChatDelta = {content?: string, reasoning?: string, toolCall?: ChatToolCall & {index: number}, logprobs?: TokenLogprob[]};

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
    invalidToolCall?: string,
    /** The content tokens' scores (reasoning excluded), when the request asked for logprobs. */
    logprobs?: TokenLogprob[]
};

export type ChatTurnOptions = TokenScoring & {
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
    const {lease, chatWrapper, history, maxTokens, sampling, choiceIndex, signal, functions, grammar, thoughtBudget, topLogprobs, tokenBias} = options;
    // Scores are known only once the turn is over, so a scored stream holds its deltas until then.
    const scored = topLogprobs != null ? new ScoredDeltas() : undefined;
    const onDelta = scored != null ? (delta: ChatDelta) => scored.add(delta) : options.onDelta;
    const chat = new LlamaChat({contextSequence: lease.sequence, chatWrapper});
    const recording = topLogprobs != null ? recordTokenLogprobs(lease.sequence, topLogprobs) : undefined;
    const outputBefore = lease.sequence.tokenMeter.usedOutputTokens;
    const spent = () => lease.sequence.tokenMeter.usedOutputTokens - outputBefore;
    let reasoning = "";
    let reasoningTokens = 0;
    let thoughtEnded = false;
    const toolCalls: ChatToolCall[] = [];
    const common = {
        ...toGenerationOptions(sampling, {choiceIndex}),
        ...(tokenBias != null ? {tokenBias} : {}),
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
            } else {
                scored?.addTokens(chunk.tokens);
                if (chunk.text !== "") onDelta?.({content: chunk.text});
            }
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
        const logprobs = scored != null && !signal.aborted
            ? await scored.score(lease, completionTokens, {topCount: topLogprobs!, withIds: options.tokenIds ?? false}, options.onDelta)
            : undefined;
        return {
            logprobs,
            content: result.response,
            reasoning,
            toolCalls,
            finishReason: toolCalls.length > 0 && stopReason === "functionCalls" ? "tool_calls" : stopReason === "maxTokens" ? "length" : "stop",
            completionTokens,
            reasoningTokens: allThought ? completionTokens : reasoningTokens
        };
    } finally {
        recording?.stop();
        chat.dispose({disposeSequence: false});
    }
}

/**
 * A scored turn's content tokens and its deltas held back in order, each content delta owning the tokens that
 * arrived with it (tokens of a chunk with no text go with the next content delta).
 */
class ScoredDeltas {
    private readonly tokens: Token[] = [];
    private readonly deltas: Array<{delta: ChatDelta, tokenEnd: number}> = [];

    public addTokens(tokens: readonly Token[]) {
        this.tokens.push(...tokens);
    }

    public add(delta: ChatDelta) {
        this.deltas.push({delta, tokenEnd: this.tokens.length});
    }

    /** Scores the content tokens on the lease's sequence, then replays the held deltas with their scores. */
    public async score(lease: SequenceLease, sampled: number, {topCount, withIds}: {topCount: number, withIds: boolean}, onDelta?: (delta: ChatDelta) => void): Promise<TokenLogprob[]> {
        const {sequence} = lease;
        const context = [...sequence.contextTokens];
        const targets = locateOutputTokens(context, sampled, this.tokens);
        const scores = await scoreTokens(sequence, context, targets, topCount);
        const logprobs = toTokenLogprobs(sequence.model, scores, {withIds, before: context.slice(0, targets[0]?.position ?? 0)});
        if (onDelta == null) return logprobs;
        let tokenStart = 0;
        const lastContent = this.deltas.findLastIndex(({delta}) => delta.content != null);
        this.deltas.forEach(({delta, tokenEnd}, index) => {
            if (delta.content == null) return onDelta(delta);
            const end = index === lastContent ? logprobs.length : tokenEnd;
            onDelta({...delta, logprobs: logprobs.slice(tokenStart, end)});
            tokenStart = end;
        });
        return logprobs;
    }
}
