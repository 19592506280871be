import type {ChatMessage as BindingMessage, MessagePart} from "@fugood/llama.node";
import {ApiError} from "../../protocol/errors.ts";
import {decodeBase64, readImageDataUrl} from "../../protocol/images.ts";
import type {ChatContentPart, ChatMessage} from "../../protocol/chat/types.ts";
import type {SamplingParams} from "../../protocol/validation.ts";
import type {CompletionUsage} from "../../protocol/completions.ts";
import {checkOutputBudget, makeUsage, toGenerationOptions} from "../engine/LocalEngine.ts";
import type {ChatTurnRequest} from "../chat/turnPlan.ts";
import type {ChatDelta, ChatTurnResult, TurnSession} from "../chat/turnRun.ts";
import type {VisionEngine} from "./VisionEngine.ts";
import {decodableDataUrl, ImageDecodeError} from "./decodableImage.ts";

/** Whether any message holds an image part: such a turn needs a model that can see. */
export function holdsImages(messages: ChatMessage[]): boolean {
    return messages.some((message) => Array.isArray(message.content) && message.content.some((part) => part.type === "image_url"));
}

/**
 * One chat or Responses turn whose messages hold images, on the vision engine. It answers through the same
 * route code as a text turn (chat/routes.ts, responses/routes.ts), which sees only the TurnSession surface.
 * What the vision binding cannot honour as the spec defines it is refused with a 400 before anything runs:
 * tools, JSON mode and token scores (logprobs, logit_bias, token ids), which the text engine implements on
 * node-llama-cpp's own generation loop.
 */
export class VisionTurnSession implements TurnSession {
    private readonly vision: VisionEngine;
    private readonly prompt: string;
    private readonly media: string[];
    private readonly promptTokens: number;
    private readonly maxTokens: number;
    private readonly signal: AbortSignal;
    private completionTokens = 0;
    private cachedTokens?: number;

    private constructor(vision: VisionEngine, fields: {prompt: string, media: string[], promptTokens: number, maxTokens: number, signal: AbortSignal}) {
        this.vision = vision;
        this.prompt = fields.prompt;
        this.media = fields.media;
        this.promptTokens = fields.promptTokens;
        this.maxTokens = fields.maxTokens;
        this.signal = fields.signal;
    }

    public static async open(vision: VisionEngine, request: ChatTurnRequest, {scored}: {scored: boolean}, signal: AbortSignal): Promise<VisionTurnSession> {
        const unsupported = [
            (request.tools ?? []).length > 0 && request.tool_choice !== "none" ? "tools" : undefined,
            request.response_format != null && request.response_format.type !== "text" ? "response_format" : undefined,
            scored ? "logprobs, logit_bias and token ids" : undefined
        ].filter((name) => name != null);
        if (unsupported.length > 0)
            throw new ApiError(400, "invalid_request", `${unsupported.join(" and ")} cannot be combined with images on the local engine; send them without images`);
        const messages = await Promise.all(request.messages.map(toBindingMessage)).catch((error: unknown) => {
            if (error instanceof ImageDecodeError) throw new ApiError(400, "invalid_request", error.message);
            throw error;
        });
        const {prompt, media} = vision.formatChat(messages);
        const counted = await vision.countTokens(prompt, media, signal).catch((error: unknown) => {
            // Headers were valid (the parser checked them), but the pixels are not: a corrupt or truncated image.
            throw new ApiError(400, "invalid_request", `an image could not be decoded (${(error as Error).message}); it may be corrupt or truncated`);
        });
        const maxTokens = checkOutputBudget({
            promptTokens: counted.tokens, budget: request.maxTokens, explicit: request.maxTokensExplicit,
            contextSize: vision.contextSize, field: request.budgetField
        });
        return new VisionTurnSession(vision, {prompt, media, promptTokens: counted.tokens, maxTokens, signal});
    }

    public async run(choiceIndex: number, sampling: SamplingParams, onDelta?: (delta: ChatDelta) => void): Promise<ChatTurnResult> {
        const generation = toGenerationOptions(sampling, {choiceIndex});
        const result = await this.vision.complete({
            prompt: this.prompt,
            media_paths: this.media,
            n_predict: this.maxTokens,
            temperature: generation.temperature,
            top_p: generation.topP,
            seed: generation.seed,
            stop: sampling.stop,
            penalty_present: sampling.presence_penalty ?? 0,
            penalty_freq: sampling.frequency_penalty ?? 0
        }, this.signal, onDelta == null ? undefined : (text) => { if (text !== "") onDelta({content: text}); });
        // The first run reads the whole prompt; what it did not evaluate was already in the slot's cache.
        this.cachedTokens ??= Math.max(0, this.promptTokens - result.timings.prompt_n);
        this.completionTokens += result.tokens_predicted;
        return {
            content: result.text,
            reasoning: "",
            toolCalls: [],
            finishReason: result.tokens_predicted >= this.maxTokens ? "length" : "stop",
            completionTokens: result.tokens_predicted,
            reasoningTokens: 0
        };
    }

    /** Spec 2.3: image tokens are input tokens, counted as the projector writes them into the prompt. */
    public usage(): CompletionUsage {
        return makeUsage({promptTokens: this.promptTokens, reusablePrefix: this.cachedTokens ?? 0, completionTokens: this.completionTokens});
    }

    public release() {
        // The vision engine's slot is held per completion (VisionEngine.complete), not per turn.
    }
}

/** A chat message in the binding's format; image parts become data URLs the binding decodes (decodableImage.ts). */
async function toBindingMessage(message: ChatMessage): Promise<BindingMessage> {
    if (message.role === "tool") throw new ApiError(400, "invalid_request", "tool messages cannot be combined with images on the local engine");
    const content = message.content;
    if (content == null || typeof content === "string") return {role: message.role, content: content ?? ""};
    return {role: message.role, content: await Promise.all(content.map(toBindingPart))};
}

async function toBindingPart(part: ChatContentPart): Promise<MessagePart> {
    if (part.type === "text") return {type: "text", text: part.text};
    // `detail` is accepted and has no effect: the projector decides the image's tokens.
    // A PNG, JPEG or GIF goes as it came; only a WebP is decoded and re-encoded (not base64 back and forth for all).
    const url = part.image_url.url;
    return {type: "image_url", image_url: {url: holdsWebp(url) ? await decodableDataUrl(readImageDataUrl(url, [])) : url}};
}

/**
 * Whether an image data URL (checked by the request's parser already) holds a WebP, from its first 12 bytes
 * (`RIFF....WEBP`): the whole image is decoded again only when it must be converted.
 */
function holdsWebp(url: string): boolean {
    const start = url.indexOf(",") + 1;
    const head = decodeBase64(url.slice(start, start + 64).replace(/\s+/g, "").slice(0, 16));
    return head != null && String.fromCharCode(...head.subarray(0, 4)) === "RIFF" && String.fromCharCode(...head.subarray(8, 12)) === "WEBP";
}
