import {buildResponse, functionCallItem, type ResponseBase, ResponseEventWriter} from "../../protocol/responses/responseOutput.ts";
import {parseResponsesRequest} from "../../protocol/responses/parseResponsesRequest.ts";
import type {ResponsesRequest} from "../../protocol/responses/types.ts";
import type {ChatToolCall} from "../../protocol/chat/types.ts";
import {type ChatModelVariant, createChatTurnRoute} from "../chat/routes.ts";
import type {TurnSession} from "../chat/turnRun.ts";
import type {ChatTurnRequest} from "../chat/turnPlan.ts";
import {makeId, unixSeconds} from "../engine/LocalEngine.ts";
import type {RequestContext, Route} from "../http/HttpServer.ts";
import {SseStream, writeSuccess} from "../http/replies.ts";
import {settleUsage} from "../http/gate.ts";

/**
 * `POST /{model}/v1/responses` (spec 2.4, 6.2) on the local engine: the same turn as chat completions (one
 * choice, tools as in 2.5, no JSON mode), answered as a Responses object or event stream.
 */
export function createResponsesRoute(variant: ChatModelVariant): Route {
    return createChatTurnRoute(variant, {
        path: "/v1/responses",
        parse: parseResponsesRequest,
        toTurnRequest: toChatTurnRequest,
        async answer(context, request, session) {
            const base: ResponseBase = {
                id: makeId("resp"),
                messageId: makeId("msg"),
                reasoningId: makeId("rs"),
                createdAt: unixSeconds(),
                model: request.model,
                instructions: request.instructions,
                maxOutputTokens: request.maxOutputTokens,
                temperature: request.temperature,
                top_p: request.top_p
            };
            if (request.stream) await streamResponse(context, request, session, base);
            else {
                const result = await session.run(0, request, undefined, {topLogprobs: request.topLogprobs});
                const truncated = result.finishReason === "length";
                const calls = result.toolCalls.map(toFunctionCallItem);
                const usage = session.usage();
                await settleUsage(context, usage);
                writeSuccess(context, buildResponse(base, {reasoning: result.reasoning, text: result.content, calls, usage, truncated, logprobs: result.logprobs}));
            }
        }
    });
}

/** Spec 2.4 and 8: without `max_output_tokens` the budget is whatever the window leaves after the input. */
function toChatTurnRequest(request: ResponsesRequest): ChatTurnRequest {
    return {
        messages: request.messages,
        maxTokens: request.maxOutputTokens ?? Infinity,
        maxTokensExplicit: request.maxOutputTokens != null,
        budgetField: "max_output_tokens",
        temperature: request.temperature,
        top_p: request.top_p,
        seed: request.seed,
        chat_template_kwargs: request.chat_template_kwargs,
        reasoning_effort: request.reasoning_effort,
        thinking_token_budget: request.thinking_token_budget,
        tools: request.tools,
        tool_choice: request.tool_choice,
        // Responses tools are flat: `tools[i].parameters`.
        toolParametersPath: (index) => ["tools", index, "parameters"]
    };
}

/** The call's `id` is its `call_id`; the output item gets its own id. */
function toFunctionCallItem(call: ChatToolCall) {
    return functionCallItem(makeId("fc"), call);
}

async function streamResponse(context: RequestContext, request: ResponsesRequest, session: TurnSession, base: ResponseBase) {
    const stream = new SseStream(context);
    const writer = new ResponseEventWriter(base, (event) => stream.send(event, event.type));
    writer.start();
    const result = await session.run(0, request, (delta) => {
        if (delta.toolCall != null) writer.functionCall(toFunctionCallItem(delta.toolCall));
        else if (delta.reasoning != null) writer.reasoningDelta(delta.reasoning);
        else if (delta.content != null) writer.textDelta(delta.content, delta.logprobs);
    }, {topLogprobs: request.topLogprobs});
    const usage = session.usage();
    // Charged before `response.completed` goes out (spec §2.3, §7).
    await settleUsage(context, usage);
    writer.finish(usage, result.finishReason === "length");
    stream.end();
}
