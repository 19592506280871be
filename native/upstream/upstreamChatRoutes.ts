import {parseChatCompletionRequest} from "../../protocol/chat/parseChatRequest.ts";
import type {ChatCompletionChunk, ChatToolCall} from "../../protocol/chat/types.ts";
import {parseCompletionRequest, type CompletionUsage, type TextCompletion} from "../../protocol/completions.ts";
import {limits, modelIds} from "../../protocol/limits.ts";
import {ApiError} from "../../protocol/errors.ts";
import {parseResponsesRequest} from "../../protocol/responses/parseResponsesRequest.ts";
import {buildResponse, functionCallItem, type ResponseBase, ResponseEventWriter} from "../../protocol/responses/responseOutput.ts";
import type {TokenLogprob} from "../../protocol/logprobs.ts";
import type {JsonObject} from "../../protocol/validation.ts";
import {parseSse} from "../../base/common/sse.ts";
import {makeId, unixSeconds} from "../engine/LocalEngine.ts";
import type {RequestContext, Route} from "../http/HttpServer.ts";
import {settleUsage} from "../http/gate.ts";
import {SseStream, writeSuccess} from "../http/replies.ts";
import {checkModelMatchesPath} from "../http/requests.ts";
import type {UpstreamClient} from "./UpstreamClient.ts";
import {reasoningOf, refuseLocalOnly, toFinishReason, toSpecChunkChoices, toSpecCompletion, toSpecTextChoices, toSpecUsage,
    toUpstreamChatBody, toUpstreamCompletionBody, toUpstreamResponsesBody, type UpstreamChat, type UpstreamText} from "./upstreamWire.ts";

// The chat family (spec 2.1-2.4, 6.1-6.2) in front of an upstream engine: our parsers validate first, so every 400
// of the spec comes before any upstream call; the upstream generates; its answer goes back in the spec's shapes,
// streamed piece by piece as it arrives (no buffering), with usage settled before the last bytes (§2.3, §7).

/** A POST route of `svc-1` whose handling is one exchange with the upstream (counted for the busy gauge). */
function upstreamRoute(upstream: UpstreamClient, path: string, handle: (context: RequestContext, body: unknown) => Promise<void>): Route {
    return {method: "POST", model: modelIds.chat, path, maxBodyBytes: limits.chatBodyBytes, handle: (context, body) => upstream.track(() => handle(context, body))};
}

/**
 * The upstream's stream events as parsed JSON, read as they arrive; a client that leaves aborts the read and the
 * request. The body is read to its end, past `[DONE]`, so its keep-alive connection goes back to the pool clean.
 */
async function* upstreamEvents<T>(response: Response): AsyncGenerator<T> {
    if (response.body == null) return;
    let done = false;
    for await (const event of parseSse(response.body, {stopAtDone: false})) {
        done ||= event.done;
        if (done) continue;
        const piece = JSON.parse(event.data) as T & {error?: {message?: string}};
        // An engine that fails mid-stream says so in an event (vLLM, llama-server): the stream ends there, unfinished.
        if (piece.error != null) throw new ApiError(502, "upstream_error", `the upstream engine failed mid-stream: ${piece.error.message ?? JSON.stringify(piece.error)}`);
        yield piece as Awaited<T>;
    }
}

/** `svc-1`'s chat completions, Responses and legacy completions on `upstream`; `model` names the upstream's model (looked up once known). */
export function createUpstreamChatRoutes(upstream: UpstreamClient, model: () => Promise<string>): Route[] {
    const chat = upstreamRoute(upstream, "/v1/chat/completions", async (context, body) => {
        const request = parseChatCompletionRequest(body);
        checkModelMatchesPath(request.model, context);
        refuseLocalOnly(request.tokenIds);
        const upstreamBody = toUpstreamChatBody(body as JsonObject, request, await model());
        const id = makeId("chatcmpl");
        const created = unixSeconds();
        if (!request.stream) {
            const completion = toSpecCompletion(await upstream.postJson<UpstreamChat>("/chat/completions", upstreamBody, context.signal), request, id, created);
            await settleUsage(context, completion.usage);
            return writeSuccess(context, completion);
        }
        // The status is known before the stream opens: an upstream refusal is still a JSON error (§7).
        const response = await upstream.post("/chat/completions", upstreamBody, context.signal);
        const stream = new SseStream(context);
        const includeUsage = request.stream_options?.include_usage === true;
        const chunk = (choices: ChatCompletionChunk["choices"], usage?: CompletionUsage): ChatCompletionChunk =>
            ({id, object: "chat.completion.chunk", created, model: request.model, choices, ...(includeUsage ? {usage: usage ?? null} : {})});
        let usage: CompletionUsage | undefined;
        for await (const piece of upstreamEvents<UpstreamChat>(response)) {
            if (piece.usage != null) usage = toSpecUsage(piece.usage);
            const choices = toSpecChunkChoices(piece, request.include_reasoning);
            if (choices.length > 0) stream.send(chunk(choices));
        }
        await finishStream(context, stream, usage, includeUsage ? (final) => chunk([], final) : undefined);
    });

    const responses = upstreamRoute(upstream, "/v1/responses", async (context, body) => {
        const request = parseResponsesRequest(body);
        checkModelMatchesPath(request.model, context);
        const base: ResponseBase = {
            id: makeId("resp"), messageId: makeId("msg"), reasoningId: makeId("rs"), createdAt: unixSeconds(), model: request.model,
            instructions: request.instructions, maxOutputTokens: request.maxOutputTokens, temperature: request.temperature, top_p: request.top_p
        };
        const upstreamBody = toUpstreamResponsesBody(request, await model());
        if (!request.stream) {
            const reply = await upstream.postJson<UpstreamChat>("/chat/completions", upstreamBody, context.signal);
            const choice = reply.choices?.[0];
            const usage = toSpecUsage(reply.usage);
            const calls = ((choice?.message?.tool_calls ?? []) as ChatToolCall[]).map((call) => functionCallItem(makeId("fc"), call));
            await settleUsage(context, usage);
            return writeSuccess(context, buildResponse(base, {
                reasoning: reasoningOf(choice?.message) ?? "", text: choice?.message?.content ?? "", calls, usage,
                truncated: toFinishReason(choice?.finish_reason) === "length", logprobs: contentLogprobs(choice?.logprobs)
            }));
        }
        const response = await upstream.post("/chat/completions", upstreamBody, context.signal);
        const stream = new SseStream(context);
        const writer = new ResponseEventWriter(base, (event) => stream.send(event, event.type));
        writer.start();
        // Tool calls arrive in pieces (id and name, then argument fragments); spec 6.2's items go out whole once complete.
        const calls = new Map<number, ChatToolCall>();
        let usage: CompletionUsage | undefined;
        let truncated = false;
        for await (const piece of upstreamEvents<UpstreamChat>(response)) {
            if (piece.usage != null) usage = toSpecUsage(piece.usage);
            const choice = piece.choices?.[0];
            if (choice == null) continue;
            const reasoning = reasoningOf(choice.delta);
            if (reasoning != null) writer.reasoningDelta(reasoning);
            if (typeof choice.delta?.content === "string") writer.textDelta(choice.delta.content, contentLogprobs(choice.logprobs));
            for (const part of (choice.delta?.tool_calls ?? []) as Array<{index?: number, id?: string, function?: {name?: string, arguments?: string}}>) {
                const call = calls.get(part.index ?? 0) ?? {id: "", type: "function", function: {name: "", arguments: ""}};
                call.id = part.id ?? call.id;
                call.function.name += part.function?.name ?? "";
                call.function.arguments += part.function?.arguments ?? "";
                calls.set(part.index ?? 0, call);
            }
            if (choice.finish_reason != null) truncated = toFinishReason(choice.finish_reason) === "length";
        }
        for (const call of calls.values()) writer.functionCall(functionCallItem(makeId("fc"), call));
        const final = usage ?? toSpecUsage(undefined);
        // Charged before `response.completed` goes out (spec §2.3, §7).
        await settleUsage(context, final);
        writer.finish(final, truncated);
        stream.end();
    });

    const completions = upstreamRoute(upstream, "/v1/completions", async (context, body) => {
        const request = parseCompletionRequest(body);
        checkModelMatchesPath(request.model, context);
        refuseLocalOnly(request.tokenIds);
        const upstreamBody = toUpstreamCompletionBody(body as JsonObject, request, await model());
        const common = {id: makeId("cmpl"), object: "text_completion" as const, created: unixSeconds(), model: request.model};
        if (!request.stream) {
            const reply = await upstream.postJson<UpstreamText>("/completions", upstreamBody, context.signal);
            const usage = toSpecUsage(reply.usage);
            await settleUsage(context, usage);
            return writeSuccess(context, {...common, choices: toSpecTextChoices(reply, true), usage} satisfies TextCompletion);
        }
        const response = await upstream.post("/completions", upstreamBody, context.signal);
        const stream = new SseStream(context);
        const includeUsage = request.stream_options?.include_usage === true;
        let usage: CompletionUsage | undefined;
        for await (const piece of upstreamEvents<UpstreamText>(response)) {
            if (piece.usage != null) usage = toSpecUsage(piece.usage);
            const choices = toSpecTextChoices(piece, false);
            if (choices.length > 0) stream.send({...common, choices, ...(includeUsage ? {usage: null} : {})});
        }
        await finishStream(context, stream, usage, includeUsage ? (final) => ({...common, choices: [], usage: final}) : undefined);
    });

    return [chat, responses, completions];
}

/**
 * Ends a stream as SseStream.finish does, with the upstream's usage (zero when it sent none). A stream the client
 * left is not charged (its meter is never settled, §6 rule 3 allows either).
 */
async function finishStream(context: RequestContext, stream: SseStream, usage: CompletionUsage | undefined, usageChunk?: (usage: CompletionUsage) => unknown) {
    if (!context.signal.aborted) await stream.finish(usage ?? toSpecUsage(undefined), usageChunk);
}

/** `logprobs.content` of an upstream choice or chunk: the scored tokens of its text, as Responses carries them. */
function contentLogprobs(logprobs: unknown): TokenLogprob[] | undefined {
    const content = (logprobs as {content?: unknown} | null | undefined)?.content;
    return Array.isArray(content) ? content as TokenLogprob[] : undefined;
}
