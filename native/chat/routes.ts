import {reasoningModelId, parseChatCompletionRequest} from "../../protocol/chat/parseChatRequest.ts";
import {modelIds, limits} from "../../protocol/limits.ts";
import {type LocalEngine, makeUsage, makeId, unixSeconds} from "../engine/LocalEngine.ts";
import {canThink} from "../library/modelFile.ts";
import type {ChatCompletionChunk, ChatCompletion, ChatCompletionRequest} from "../../protocol/chat/types.ts";
import {type ChatDelta, ChatTurnSession, type ChatTurnResult, type TokenScoring, type TurnSession} from "./turnRun.ts";
import type {VisionEngine} from "../vision/VisionEngine.ts";
import {holdsImages, VisionTurnSession} from "../vision/visionTurn.ts";
import {toTokenBias} from "../engine/tokenProbabilities.ts";
import {checkModelMatchesPath} from "../http/requests.ts";
import type {RequestContext, Route} from "../http/HttpServer.ts";
import type {ChatTurnRequest} from "./turnPlan.ts";
import {SseStream, writeSuccess} from "../http/replies.ts";
import type {CompletionUsage} from "../../protocol/completions.ts";
import {ApiError} from "../../protocol/errors.ts";
import {settleUsage} from "../http/gate.ts";

/** One model id of the chat family and the engine behind it, thinking by default or not (spec 2.6.1). */
export type ChatModelVariant = {id: string, reasoningByDefault: boolean, engine: LocalEngine, vision?: VisionEngine};

/**
 * `svc-1` on the chat engine, plus the reasoning-by-default variant on the reasoning engine (its own model when
 * one was given for that role, else the chat model) when that model's chat format can think.
 */
export function chatModelVariants(chatEngine: LocalEngine, reasoningEngine: LocalEngine = chatEngine, vision?: VisionEngine): ChatModelVariant[] {
    const general: ChatModelVariant = {id: modelIds.chat, reasoningByDefault: false, engine: chatEngine, ...(vision != null ? {vision} : {})};
    return canThink(reasoningEngine.chatWrapper)
        ? [general, {id: reasoningModelId, reasoningByDefault: true, engine: reasoningEngine}]
        : [general];
}

/**
 * Usage of a chat turn (spec 2.3): the engine's prompt and cache counts, every output token of every choice
 * and attempt, and how many of those were thinking (2.3.4) when the model's format can think.
 */
export function chatUsage({promptTokens, reusablePrefix, completionTokens, reasoningTokens, canThink}: {
    promptTokens: number,
    reusablePrefix: number,
    completionTokens: number,
    reasoningTokens: number,
    canThink: boolean
}): CompletionUsage {
    const usage = makeUsage({promptTokens, reusablePrefix, completionTokens});
    return canThink ? {...usage, completion_tokens_details: {reasoning_tokens: reasoningTokens}} : usage;
}

/**
 * A generation delta as the `delta` of a chat chunk (spec 6.1): reasoning, content, or one whole tool call under
 * its index, with its id, type, name and complete arguments (the call is sent once its arguments are done).
 */
export function toChunkDelta(delta: ChatDelta): ChatCompletionChunk["choices"][number]["delta"] {
    if (delta.toolCall == null) return delta.reasoning != null ? {reasoning: delta.reasoning} : {content: delta.content};
    const {index, id, type, function: fn} = delta.toolCall;
    return {tool_calls: [{index, id, type, function: {name: fn.name, arguments: fn.arguments}}]};
}

/**
 * A `POST` endpoint whose request is one chat turn of `variant` (chat completions, Responses): parse the body,
 * check its model against the path, lease a sequence for the turn, answer, and always give the sequence back.
 */
export function createChatTurnRoute<Request extends {model: string}>(variant: ChatModelVariant, {path, parse, toTurnRequest, answer}: {
    path: string,
    parse(body: unknown): Request,
    toTurnRequest(request: Request): ChatTurnRequest,
    answer(context: RequestContext, request: Request, session: TurnSession): Promise<void>
}): Route {
    return {
        method: "POST",
        model: variant.id,
        path,
        maxBodyBytes: limits.chatBodyBytes,
        async handle(context, body) {
            const request = parse(body);
            checkModelMatchesPath(request.model, context);
            const turn = toTurnRequest(request);
            // A turn with images runs on the vision engine when one is loaded; without one, planChatTurn refuses it.
            const session: TurnSession = variant.vision != null && holdsImages(turn.messages)
                ? await VisionTurnSession.open(variant.vision, turn, {scored: asksTokenScores(request)}, context.signal)
                : await ChatTurnSession.open(variant.engine, variant, turn, context.signal);
            try {
                await answer(context, request, session);
            } catch (error) {
                // Spec 2.7.5 and §7 "Charging": the unsatisfiable JSON-mode 400 carries usage, and it is charged.
                if (error instanceof ApiError && error.usage != null) await settleUsage(context, error.usage);
                throw error;
            } finally {
                session.release();
            }
        }
    };
}

/** Whether a chat or Responses request asks for token scores (logprobs, logit_bias, token ids). */
function asksTokenScores(request: object): boolean {
    const {topLogprobs, logitBias, tokenIds} = request as {topLogprobs?: number, logitBias?: unknown, tokenIds?: boolean};
    return topLogprobs != null || logitBias != null || tokenIds === true;
}

/** `POST /{model}/v1/chat/completions` (spec 2.1-2.3, 2.5-2.7, 6.1) on the local engine. */
export function createChatCompletionsRoute(variant: ChatModelVariant): Route {
    return createChatTurnRoute(variant, {
        path: "/v1/chat/completions",
        parse: parseChatCompletionRequest,
        toTurnRequest: (request) => ({...request, budgetField: request.maxTokensField}),
        async answer(context, request, session) {
            const common = {id: makeId("chatcmpl"), created: unixSeconds(), model: request.model};
            // A bad logit_bias id is a 400 before the stream opens.
            const scoring: TokenScoring = {topLogprobs: request.topLogprobs, tokenBias: toTokenBias(variant.engine.model, request.logitBias), tokenIds: request.tokenIds};
            if (request.stream) await streamChoices(context, request, session, common, scoring);
            else await answerChoices(context, request, session, common, scoring);
        }
    });
}

type Common = {id: string, created: number, model: string};

/** Spec 2.2 and 2.5.4: a reply that calls tools has `content` null and its calls in `tool_calls`. */
function toMessage(result: ChatTurnResult, includeReasoning: boolean): ChatCompletion["choices"][number]["message"] {
    const calls = result.toolCalls.length > 0;
    return {
        role: "assistant",
        content: calls ? null : result.content,
        // Spec 2.6.4-2.6.5: separated working in `reasoning`, null under include_reasoning false.
        ...(result.reasoning !== "" ? {reasoning: includeReasoning ? result.reasoning : null} : {}),
        ...(calls ? {tool_calls: result.toolCalls} : {})
    };
}

/** `choices[].logprobs` (and a chunk's): the content tokens' scores, or null when the request asked for none. */
function toChoiceLogprobs(logprobs: ChatTurnResult["logprobs"]): ChatCompletion["choices"][number]["logprobs"] {
    return logprobs != null ? {content: logprobs, refusal: null} : null;
}

async function answerChoices(context: RequestContext, request: ChatCompletionRequest, session: TurnSession, common: Common, scoring: TokenScoring) {
    const results: ChatTurnResult[] = [];
    for (let index = 0; index < request.n; index++) results.push(await session.run(index, request, undefined, scoring));
    const completion: ChatCompletion = {
        ...common,
        object: "chat.completion",
        choices: results.map((result, index) => ({
            index,
            message: toMessage(result, request.include_reasoning),
            finish_reason: result.finishReason,
            logprobs: toChoiceLogprobs(result.logprobs)
        })),
        usage: session.usage()
    };
    await settleUsage(context, completion.usage);
    writeSuccess(context, completion);
}

async function streamChoices(context: RequestContext, request: ChatCompletionRequest, session: TurnSession, common: Common, scoring: TokenScoring) {
    const stream = new SseStream(context);
    const includeUsage = request.stream_options?.include_usage === true;
    const chunk = (choices: ChatCompletionChunk["choices"], usage?: CompletionUsage): ChatCompletionChunk => ({
        ...common,
        object: "chat.completion.chunk",
        choices,
        ...(includeUsage ? {usage: usage ?? null} : {})
    });
    for (let index = 0; index < request.n; index++) {
        stream.send(chunk([{index, delta: {role: "assistant", content: ""}, finish_reason: null, logprobs: null}]));
        const result = await session.run(index, request, (delta) => {
            if (delta.reasoning != null && !request.include_reasoning) return;
            stream.send(chunk([{index, delta: toChunkDelta(delta), finish_reason: null, logprobs: toChoiceLogprobs(delta.logprobs)}]));
        }, scoring);
        stream.send(chunk([{index, delta: {}, finish_reason: result.finishReason, logprobs: null}]));
    }
    await stream.finish(session.usage(), includeUsage ? (usage) => chunk([], usage) : undefined);
}
