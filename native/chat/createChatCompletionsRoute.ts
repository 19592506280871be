import {parseChatCompletionRequest} from "../../protocol/chat/parseChatCompletionRequest.ts";
import type {ChatCompletion, ChatCompletionChunk, ChatCompletionRequest, CompletionUsage} from "../../protocol/chat/types.ts";
import {makeId, unixSeconds} from "../engine/utils/makeId.ts";
import type {RequestContext} from "../http/RequestContext.ts";
import type {Route} from "../http/Route.ts";
import {SseStream} from "../http/SseStream.ts";
import {writeSuccess} from "../http/writeResponse.ts";
import type {ChatModelVariant} from "./chatModelVariants.ts";
import type {ChatTurnSession} from "./ChatTurnSession.ts";
import {createChatTurnRoute} from "./createChatTurnRoute.ts";
import type {ChatTurnResult} from "./generateChatTurn.ts";
import {toChunkDelta} from "./utils/toChunkDelta.ts";

/** `POST /{model}/v1/chat/completions` (spec 2.1-2.3, 2.5-2.7, 6.1) on the local engine. */
export function createChatCompletionsRoute(variant: ChatModelVariant): Route {
    return createChatTurnRoute(variant, {
        path: "/v1/chat/completions",
        parse: parseChatCompletionRequest,
        toTurnRequest: (request) => ({...request, budgetField: request.maxTokensField}),
        async answer(context, request, session) {
            const common = {id: makeId("chatcmpl"), created: unixSeconds(), model: request.model};
            if (request.stream) await streamChoices(context, request, session, common);
            else await answerChoices(context, request, session, common);
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

async function answerChoices(context: RequestContext, request: ChatCompletionRequest, session: ChatTurnSession, common: Common) {
    const results: ChatTurnResult[] = [];
    for (let index = 0; index < request.n; index++) results.push(await session.run(index, request));
    const completion: ChatCompletion = {
        ...common,
        object: "chat.completion",
        choices: results.map((result, index) => ({
            index,
            message: toMessage(result, request.include_reasoning),
            finish_reason: result.finishReason,
            logprobs: null
        })),
        usage: session.usage()
    };
    writeSuccess(context, completion);
}

async function streamChoices(context: RequestContext, request: ChatCompletionRequest, session: ChatTurnSession, common: Common) {
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
            stream.send(chunk([{index, delta: toChunkDelta(delta), finish_reason: null, logprobs: null}]));
        });
        stream.send(chunk([{index, delta: {}, finish_reason: result.finishReason, logprobs: null}]));
    }
    if (includeUsage) stream.send(chunk([], session.usage()));
    stream.send("[DONE]");
    stream.end();
}
