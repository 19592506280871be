import type {Token} from "node-llama-cpp";
import type {CompletionUsage} from "../../protocol/chat/types.ts";
import {parseCompletionRequest} from "../../protocol/completions/parseCompletionRequest.ts";
import type {TextCompletion} from "../../protocol/completions/types.ts";
import {limits} from "../../protocol/limits.ts";
import {checkOutputBudget} from "../engine/checkOutputBudget.ts";
import type {LocalEngine} from "../engine/LocalEngine.ts";
import {makeId, unixSeconds} from "../engine/utils/makeId.ts";
import {makeUsage} from "../engine/utils/makeUsage.ts";
import {checkModelMatchesPath} from "../http/checkModelMatchesPath.ts";
import type {Route} from "../http/Route.ts";
import {SseStream} from "../http/SseStream.ts";
import {writeSuccess} from "../http/writeResponse.ts";
import {generateCompletionText, type CompletionTextResult} from "./generateCompletionText.ts";
import {tokenizePrompt} from "./tokenizePrompt.ts";

/** `POST /{model}/v1/completions`: legacy text completions, one or more prompts, `n` choices each. */
export function createCompletionsRoute(engine: LocalEngine, model: string): Route {
    return {
        method: "POST",
        model,
        path: "/v1/completions",
        maxBodyBytes: limits.chatBodyBytes,
        async handle(context, body) {
            const request = parseCompletionRequest(body);
            checkModelMatchesPath(request.model, context);
            const prompts = request.prompts.map((text) => tokenizePrompt(engine.model, text));
            const budgets = prompts.map((prompt) => checkOutputBudget({
                promptTokens: prompt.length,
                budget: request.maxTokens,
                explicit: request.maxTokensExplicit,
                contextSize: engine.context.contextSize,
                field: "max_tokens"
            }));
            const common = {id: makeId("cmpl"), created: unixSeconds(), model: request.model, object: "text_completion" as const};
            const stream = request.stream ? new SseStream(context) : undefined;
            const includeUsage = request.stream_options?.include_usage === true;
            const choices: TextCompletion["choices"] = [];
            const usage: CompletionUsage = makeUsage({promptTokens: 0, reusablePrefix: 0, completionTokens: 0});

            for (const [promptIndex, prompt] of prompts.entries()) {
                // Only a stream listens to text chunks: without a listener node-llama-cpp skips detokenizing every
                // token twice (measured ~4% of the tokens/s of 4 concurrent 64-token completions).
                const onText = stream == null ? undefined : (choice: number, text: string) => {
                    stream.send({...common, choices: [{index: promptIndex * request.n + choice, text, finish_reason: null, logprobs: null}], ...(includeUsage ? {usage: null} : {})});
                };
                const results = await generateForPrompt(engine, prompt, budgets[promptIndex], request, context.signal,
                    request.echo ? request.prompts[promptIndex] : "", onText);
                results.forEach(({result, reusablePrefix}, choice) => {
                    const index = promptIndex * request.n + choice;
                    const text = (request.echo ? request.prompts[promptIndex] : "") + result.text;
                    choices.push({index, text, finish_reason: result.finishReason, logprobs: null});
                    stream?.send({...common, choices: [{index, text: "", finish_reason: result.finishReason, logprobs: null}], ...(includeUsage ? {usage: null} : {})});
                    if (choice === 0) addUsage(usage, makeUsage({promptTokens: prompt.length, reusablePrefix, completionTokens: 0}));
                    addUsage(usage, makeUsage({promptTokens: 0, reusablePrefix: 0, completionTokens: result.completionTokens}));
                });
            }

            if (stream != null) {
                if (includeUsage) stream.send({...common, choices: [], usage});
                stream.send("[DONE]");
                stream.end();
                return;
            }
            writeSuccess(context, {...common, choices, usage} satisfies TextCompletion);
        }
    };
}

async function generateForPrompt(
    engine: LocalEngine, prompt: Token[], maxTokens: number, request: ReturnType<typeof parseCompletionRequest>, signal: AbortSignal,
    echo: string, onText: ((choice: number, text: string) => void) | undefined
): Promise<Array<{result: CompletionTextResult, reusablePrefix: number}>> {
    const lease = await engine.scheduler.acquire(prompt, signal);
    try {
        const results: Array<{result: CompletionTextResult, reusablePrefix: number}> = [];
        for (let choice = 0; choice < request.n; choice++) {
            if (echo !== "") onText?.(choice, echo);
            const result = await generateCompletionText({
                lease, prompt, maxTokens, sampling: request, choiceIndex: choice, signal, onText: onText && ((text) => onText(choice, text))
            });
            results.push({result, reusablePrefix: lease.reusablePrefix});
        }
        return results;
    } finally {
        lease.release();
    }
}

function addUsage(total: CompletionUsage, part: CompletionUsage) {
    total.prompt_tokens += part.prompt_tokens;
    total.completion_tokens += part.completion_tokens;
    total.total_tokens += part.total_tokens;
    total.prompt_tokens_details.cached_tokens += part.prompt_tokens_details.cached_tokens;
}
