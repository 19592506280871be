import {type LlamaModel, type Token, type TokenBias, LlamaCompletion} from "node-llama-cpp";
import type {FinishReason} from "../../protocol/chat/types.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {toGenerationOptions, checkOutputBudget, type LocalEngine, makeId, unixSeconds, makeUsage, type OutputWindow, tokenizeForWindow} from "../engine/LocalEngine.ts";
import {fewestTokens, tokenizeLongText, type TokenBudget} from "../engine/promptTokens.ts";
import {parseCompletionRequest, type TextCompletion, type CompletionUsage} from "../../protocol/completions.ts";
import {limits} from "../../protocol/limits.ts";
import {checkModelMatchesPath} from "../http/requests.ts";
import type {Route} from "../http/HttpServer.ts";
import {SseStream, writeSuccess} from "../http/replies.ts";
import {settleUsage} from "../http/gate.ts";
import type {SamplingParams} from "../../protocol/validation.ts";
import type {LegacyLogprobs} from "../../protocol/logprobs.ts";
import {joinLegacyLogprobs, recordTokenLogprobs, scoreTokens, toLegacyLogprobs, toTokenBias, type ScoreTarget} from "../engine/tokenProbabilities.ts";

/**
 * Raw-text prompt tokens with the BOS token the model expects, exactly as they are evaluated; a long prompt is
 * tokenized in chunks that let other clients in, stopping once past `budget.limit` (see promptTokens.ts).
 */
export async function tokenizePrompt(model: LlamaModel, text: string, budget: TokenBudget = {limit: Infinity}): Promise<Token[]> {
    const bos = model.tokens.bos;
    return tokenizeLongText(model, text, undefined, budget, bos != null && model.tokens.shouldPrependBosToken ? [bos] : []);
}

export type CompletionTextResult = {
    text: string,
    finishReason: Exclude<FinishReason, "tool_calls">,
    completionTokens: number,
    /** The output's scores (after the echoed prompt's when `scoring.echo`), when the request asked for logprobs. */
    logprobs?: LegacyLogprobs
};

/**
 * Legacy scoring: alternatives per token, whether the echoed prompt is scored too (its text precedes the output),
 * and whether the scores carry token ids (`x_svc.token_ids`).
 */
export type CompletionScoring = {topLogprobs?: number, tokenBias?: TokenBias, echo?: string, tokenIds?: boolean};

/** Continues raw prompt tokens on a leased sequence (legacy completions: no chat template). */
export async function generateCompletionText({lease, prompt, maxTokens, sampling, choiceIndex, signal, onText, scoring = {}}: {
    lease: SequenceLease,
    prompt: Token[],
    maxTokens: number,
    sampling: SamplingParams,
    choiceIndex: number,
    signal: AbortSignal,
    onText?: (text: string) => void,
    scoring?: CompletionScoring
}): Promise<CompletionTextResult> {
    // Scores exist only when asked for, and not for a request the client has left.
    const scoreIfAsked = async (output: Token[]) => (scoring.topLogprobs != null && !signal.aborted
        ? await scoreCompletion(lease, prompt, output, {...scoring, topLogprobs: scoring.topLogprobs})
        : undefined);
    // A zero budget scores the prompt alone (max_tokens 0 with echo and logprobs): nothing is generated, and
    // LlamaCompletion is not asked, as it reads maxTokens 0 as no limit at all.
    if (maxTokens === 0) {
        return {
            text: "",
            finishReason: "length",
            completionTokens: 0,
            logprobs: await scoreIfAsked([])
        };
    }
    const completion = new LlamaCompletion({contextSequence: lease.sequence});
    const outputBefore = lease.sequence.tokenMeter.usedOutputTokens;
    const {tokens} = lease.sequence.model;
    // LlamaCompletion prepends the BOS token itself; `prompt` holds it already (so usage and the window count it).
    const input = tokens.shouldPrependBosToken && prompt[0] === tokens.bos ? prompt.slice(1) : prompt;
    // The tokens behind the returned text, collected only when they are to be scored.
    const output: Token[] = [];
    const recording = scoring.topLogprobs != null ? recordTokenLogprobs(lease.sequence, scoring.topLogprobs) : undefined;
    try {
        const result = await completion.generateCompletionWithMeta(input, {
            ...toGenerationOptions(sampling, {choiceIndex}),
            ...(scoring.tokenBias != null ? {tokenBias: scoring.tokenBias} : {}),
            onToken: scoring.topLogprobs != null ? (generated: Token[]) => output.push(...generated) : undefined,
            maxTokens,
            // The route checked that prompt plus budget fit the window: keep the whole prompt (LlamaCompletion
            // would otherwise cut its start to leave a tenth of the context free) and never shift it out.
            contextShiftSize: lease.sequence.context.contextSize - prompt.length,
            disableContextShift: true,
            signal,
            stopOnAbortSignal: true,
            onTextChunk: onText
        });
        return {
            text: result.response,
            finishReason: result.metadata.stopReason === "maxTokens" ? "length" : "stop",
            completionTokens: lease.sequence.tokenMeter.usedOutputTokens - outputBefore,
            logprobs: await scoreIfAsked(output)
        };
    } finally {
        recording?.stop();
        completion.dispose({disposeSequence: false});
    }
}

/**
 * Scores a completion's output tokens, which follow the prompt directly, and with `echo` the prompt's own tokens
 * (the BOS token is not shown; the first shown token has nothing before it to be scored from, so it is null).
 */
async function scoreCompletion(lease: SequenceLease, prompt: Token[], output: Token[], {topLogprobs, echo, tokenIds: withIds = false}: CompletionScoring & {topLogprobs: number}): Promise<LegacyLogprobs> {
    const {model} = lease.sequence;
    const shownFrom = model.tokens.bos != null && prompt[0] === model.tokens.bos ? 1 : 0;
    const targets: ScoreTarget[] = [];
    if (echo != null) for (let position = shownFrom + 1; position < prompt.length; position++) targets.push({position, token: prompt[position]});
    output.forEach((token, index) => targets.push({position: prompt.length + index, token}));
    const scores = await scoreTokens(lease.sequence, [...prompt, ...output], targets, topLogprobs);
    const echoed = echo != null ? prompt.length - shownFrom - 1 : 0;
    const outputLogprobs = toLegacyLogprobs(model, output, scores.slice(Math.max(0, echoed)), {textStart: echo?.length ?? 0, withIds, before: prompt});
    if (echo == null) return outputLogprobs;
    const promptScores = [null, ...scores.slice(0, echoed)];
    return joinLegacyLogprobs(toLegacyLogprobs(model, prompt.slice(shownFrom), promptScores, {withIds}), outputLogprobs);
}

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
            const window: OutputWindow = {budget: request.maxTokens, explicit: request.maxTokensExplicit, contextSize: engine.context.contextSize, field: "max_tokens"};
            // Every prompt that cannot fit by its byte count alone is refused before any is tokenized.
            for (const text of request.prompts)
                checkOutputBudget({...window, promptTokens: fewestTokens(engine.model, Buffer.byteLength(text)), atLeast: true});
            const prompts: Token[][] = [];
            for (const text of request.prompts)
                prompts.push(await tokenizeForWindow(window, (limit) => tokenizePrompt(engine.model, text, {limit, signal: context.signal})));
            const budgets = prompts.map((prompt) => checkOutputBudget({...window, promptTokens: prompt.length}));
            const tokenBias = toTokenBias(engine.model, request.logitBias);
            // Scores exist once a choice is done, so a scored stream sends each choice's text whole, with them.
            const scored = request.topLogprobs != null;
            const common = {id: makeId("cmpl"), created: unixSeconds(), model: request.model, object: "text_completion" as const};
            const stream = request.stream ? new SseStream(context) : undefined;
            const includeUsage = request.stream_options?.include_usage === true;
            const choices: TextCompletion["choices"] = [];
            const usage: CompletionUsage = makeUsage({promptTokens: 0, reusablePrefix: 0, completionTokens: 0});

            for (const [promptIndex, prompt] of prompts.entries()) {
                // Only a stream listens to text chunks: without a listener node-llama-cpp skips detokenizing every
                // token twice (measured ~4% of the tokens/s of 4 concurrent 64-token completions).
                const onText = stream == null || scored ? undefined : (choice: number, text: string) => {
                    stream.send({...common, choices: [{index: promptIndex * request.n + choice, text, finish_reason: null, logprobs: null}], ...(includeUsage ? {usage: null} : {})});
                };
                const echo = request.echo ? request.prompts[promptIndex] : "";
                const scoring = {topLogprobs: request.topLogprobs, tokenBias, echo: request.echo ? echo : undefined, tokenIds: request.tokenIds};
                const results = await generateForPrompt(engine, prompt, budgets[promptIndex], request, context.signal, echo, onText, scoring);
                results.forEach(({result, reusablePrefix}, choice) => {
                    const index = promptIndex * request.n + choice;
                    const text = echo + result.text;
                    const logprobs = result.logprobs ?? null;
                    choices.push({index, text, finish_reason: result.finishReason, logprobs});
                    if (scored) stream?.send({...common, choices: [{index, text, finish_reason: null, logprobs}], ...(includeUsage ? {usage: null} : {})});
                    stream?.send({...common, choices: [{index, text: "", finish_reason: result.finishReason, logprobs: null}], ...(includeUsage ? {usage: null} : {})});
                    if (choice === 0) addUsage(usage, makeUsage({promptTokens: prompt.length, reusablePrefix, completionTokens: 0}));
                    addUsage(usage, makeUsage({promptTokens: 0, reusablePrefix: 0, completionTokens: result.completionTokens}));
                });
            }

            // Charged before the last bytes go out (spec §2.3, §7), streamed or not.
            if (stream != null) return stream.finish(usage, includeUsage ? () => ({...common, choices: [], usage}) : undefined);
            await settleUsage(context, usage);
            writeSuccess(context, {...common, choices, usage} satisfies TextCompletion);
        }
    };
}

async function generateForPrompt(
    engine: LocalEngine, prompt: Token[], maxTokens: number, request: ReturnType<typeof parseCompletionRequest>, signal: AbortSignal,
    echo: string, onText: ((choice: number, text: string) => void) | undefined, scoring: CompletionScoring
): Promise<Array<{result: CompletionTextResult, reusablePrefix: number}>> {
    const lease = await engine.scheduler.acquire(prompt, signal);
    try {
        const results: Array<{result: CompletionTextResult, reusablePrefix: number}> = [];
        for (let choice = 0; choice < request.n; choice++) {
            if (echo !== "") onText?.(choice, echo);
            const result = await generateCompletionText({
                lease, prompt, maxTokens, sampling: request, choiceIndex: choice, signal, onText: onText && ((text) => onText(choice, text)), scoring
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
