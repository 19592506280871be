import {parseChatCompletionRequest} from "../../protocol/chat/parseChatCompletionRequest.ts";
import type {ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, CompletionUsage} from "../../protocol/chat/types.ts";
import {limits} from "../../protocol/limits.ts";
import {checkOutputBudget} from "../engine/checkOutputBudget.ts";
import type {LocalEngine} from "../engine/LocalEngine.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {makeId, unixSeconds} from "../engine/utils/makeId.ts";
import {makeUsage} from "../engine/utils/makeUsage.ts";
import {checkModelMatchesPath} from "../http/checkModelMatchesPath.ts";
import type {RequestContext} from "../http/RequestContext.ts";
import type {Route} from "../http/Route.ts";
import {SseStream} from "../http/SseStream.ts";
import {writeSuccess} from "../http/writeResponse.ts";
import {generateChatTurn, type ChatTurnResult} from "./generateChatTurn.ts";
import {refuseImageParts} from "./refuseImageParts.ts";
import {renderChatPrompt} from "./renderChatPrompt.ts";
import {toChatHistory} from "./utils/toChatHistory.ts";

/** `POST /{model}/v1/chat/completions` (spec 2.1-2.3, 6.1) on the local engine. */
export function createChatCompletionsRoute(engine: LocalEngine, model: string): Route {
    return {
        method: "POST",
        model,
        path: "/v1/chat/completions",
        maxBodyBytes: limits.chatBodyBytes,
        async handle(context, body) {
            const request = parseChatCompletionRequest(body);
            checkModelMatchesPath(request.model, context);
            refuseImageParts(request.messages);
            const history = toChatHistory(request.messages);
            const prompt = renderChatPrompt(engine.model, engine.chatWrapper, history);
            const maxTokens = checkOutputBudget({
                promptTokens: prompt.length,
                budget: request.maxTokens,
                explicit: request.maxTokensExplicit,
                contextSize: engine.context.contextSize,
                field: "max_tokens"
            });
            const lease = await engine.scheduler.acquire(prompt, context.signal);
            try {
                const run = (choiceIndex: number, onDelta?: Parameters<typeof generateChatTurn>[0]["onDelta"]) => generateChatTurn({
                    lease, chatWrapper: engine.chatWrapper, history, maxTokens, sampling: request, choiceIndex, signal: context.signal, onDelta
                });
                const common = {id: makeId("chatcmpl"), created: unixSeconds(), model: request.model};
                if (request.stream) await streamChoices(context, request, lease, prompt.length, common, run);
                else await answerChoices(context, request, lease, prompt.length, common, run);
            } finally {
                lease.release();
            }
        }
    };
}

type Common = {id: string, created: number, model: string};
type RunChoice = (choiceIndex: number, onDelta?: (delta: {content?: string, reasoning?: string}) => void) => Promise<ChatTurnResult>;

function usageOf(lease: SequenceLease, promptTokens: number, results: ChatTurnResult[]): CompletionUsage {
    return makeUsage({promptTokens, reusablePrefix: lease.reusablePrefix, completionTokens: results.reduce((sum, result) => sum + result.completionTokens, 0)});
}

async function answerChoices(context: RequestContext, request: ChatCompletionRequest, lease: SequenceLease, promptTokens: number, common: Common, run: RunChoice) {
    const results: ChatTurnResult[] = [];
    for (let index = 0; index < request.n; index++) results.push(await run(index));
    const completion: ChatCompletion = {
        ...common,
        object: "chat.completion",
        choices: results.map((result, index) => ({
            index,
            message: {
                role: "assistant",
                content: result.content,
                ...(result.reasoning !== "" ? {reasoning: request.include_reasoning ? result.reasoning : null} : {})
            },
            finish_reason: result.finishReason,
            logprobs: null
        })),
        usage: usageOf(lease, promptTokens, results)
    };
    writeSuccess(context, completion);
}

async function streamChoices(context: RequestContext, request: ChatCompletionRequest, lease: SequenceLease, promptTokens: number, common: Common, run: RunChoice) {
    const stream = new SseStream(context);
    const includeUsage = request.stream_options?.include_usage === true;
    const chunk = (choices: ChatCompletionChunk["choices"], usage?: CompletionUsage): ChatCompletionChunk => ({
        ...common,
        object: "chat.completion.chunk",
        choices,
        ...(includeUsage ? {usage: usage ?? null} : {})
    });
    const results: ChatTurnResult[] = [];
    for (let index = 0; index < request.n; index++) {
        stream.send(chunk([{index, delta: {role: "assistant", content: ""}, finish_reason: null, logprobs: null}]));
        const result = await run(index, (delta) => {
            if (delta.reasoning != null && !request.include_reasoning) return;
            stream.send(chunk([{index, delta, finish_reason: null, logprobs: null}]));
        });
        results.push(result);
        stream.send(chunk([{index, delta: {}, finish_reason: result.finishReason, logprobs: null}]));
    }
    if (includeUsage) stream.send(chunk([], usageOf(lease, promptTokens, results)));
    stream.send("[DONE]");
    stream.end();
}
