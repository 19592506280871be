import type {LlamaModel, Token} from "node-llama-cpp";
import {ValidationError} from "../../protocol/validation.ts";
import type {NormalizedImage} from "../../protocol/images.ts";
import type {NormalizedDecisionRequest} from "../../protocol/decisions/types.ts";
import type {DecisionBackend, DecisionRun} from "../decisions/decisionBackend.ts";
import {decisionHistory} from "../decisions/LlamaDecisionEngine.ts";
import {explanationOpening, firstSentence} from "../decisions/explanations.ts";
import type {RoundsEvaluation} from "../decisions/rounds.ts";
import {commonPrefixLength} from "../engine/SequenceScheduler.ts";
import type {VisionEngine} from "./VisionEngine.ts";
import {decodableDataUrl} from "./decodableImage.ts";

// Decisions about images keep the one decision path (LlamaDecisionEngine: prompts rendered and tokenized with the
// text engine's tokenizer and template, label tokens, label trees, order averaging); only where rounds run changes.
// The text engine's tokens are turned back into text (the vision binding takes a prompt string, not ids) with the
// images' markers in the input, and each round's next-token distribution comes from the vision engine. Rounds share
// the input, images included, as their prefix: the binding keeps it cached, so N questions cost one image encoding
// (measured: the second round of a request evaluated 12 new tokens, the first 45 with a 16-token image).

/** libmtmd's default media marker: where the binding puts each image's tokens in the prompt. */
const mediaMarker = "<__media__>";

/** The decision input with its images first, each on a line with its name (spec 2.9 `image_1`, 2.10 the keys). */
export function inputWithImages(images: readonly NormalizedImage[], text: string): string {
    return `${images.map((image) => `${image.name}: ${mediaMarker}`).join("\n")}\n\n${text}`;
}

/**
 * A decision backend for one request with images: the text backend's tokenizer and template, rounds run on the
 * vision engine with the request's images. Images that cannot be decoded are the spec's `request_rejected`
 * (400 on /v1/decisions, 422 on /v1/systemone, as the protocol's other unreadable images).
 */
export function visionDecisionBackend(text: DecisionBackend, vision: VisionEngine, images: readonly NormalizedImage[], imagePath: (image: NormalizedImage) => (string | number)[],
    maxSoftTokens?: number): DecisionBackend {
    const {model} = text;
    const bos = model.tokens.bos;
    const toPrompt = (tokens: readonly Token[]) => model.detokenize(tokens[0] === bos ? tokens.slice(1) : tokens, true);
    return {
        model,
        chatWrapper: text.chatWrapper,
        contextSize: Math.min(text.contextSize, vision.contextSize),
        async open(firstTokens, signal): Promise<DecisionRun> {
            const media = await Promise.all(images.map((image) => decodableDataUrl(image).catch((error: unknown) => {
                throw new ValidationError(imagePath(image), (error as Error).message.replace(/^the WebP image /, ""), {code: "request_rejected"});
            })));
            // Every image is decoded once up front: a corrupt one is refused here, before any round runs.
            const counted = await vision.countTokens(toPrompt(firstTokens), media, signal).catch((error: unknown) => {
                throw new ValidationError(imagePath(images[0]), `could not be decoded (${(error as Error).message}); an image may be corrupt or truncated`, {code: "request_rejected"});
            });
            // Spec 2.10: x_svc.max_soft_tokens bounds each image's tokens. This projector writes a fixed count
            // per image (libmtmd has no per-request budget), so a budget below it cannot be honoured.
            const most = Math.max(...counted.imageTokens);
            if (maxSoftTokens != null && most > maxSoftTokens)
                throw new ValidationError(["x_svc", "max_soft_tokens"], `is ${maxSoftTokens}, but the loaded projector reads an image of this request as ${most} tokens; use at least ${most}`);
            return {
                async evaluate(rounds, {labelMass}): Promise<RoundsEvaluation> {
                    const logits: RoundsEvaluation["logits"] = [];
                    const labelMasses: number[] = [];
                    // Charged as the text engine charges (rounds.ts): the first round whole, images included, then
                    // each round's own tail, although the binding's workaround (VisionEngine.complete) reads each afresh.
                    let inputTokens = counted.tokens;
                    let previous: readonly Token[] | undefined;
                    const names = tokenNames(model);
                    for (const round of rounds) {
                        const {probabilities} = await vision.nextTokenProbabilities(toPrompt(round.tokens), media, names.vocabularySize, signal);
                        // Log-probabilities serve as logits: the per-round shift cancels in the label softmax.
                        const logProbability = (id: Token) => Math.log(probabilities.get(names.piece(id)) ?? 0);
                        logits.push(round.labelTokens.map((ids) => new Map(ids.map((id) => [id, logProbability(id)]))));
                        if (labelMass) labelMasses.push([...new Set(round.labelTokens.flat())].reduce((sum, id) => sum + Math.exp(logProbability(id)), 0));
                        if (previous != null) inputTokens += round.tokens.length - commonPrefixLength(previous, round.tokens);
                        previous = round.tokens;
                    }
                    return {logits, inputTokens, ...(labelMass ? {labelMasses} : {})};
                },
                async explain({text: input, questionPrompt, answerText, signal: explainSignal}) {
                    const history = decisionHistory(input, questionPrompt, explanationOpening(answerText));
                    const prompt = toPrompt(text.chatWrapper.generateContextState({chatHistory: history}).contextText.tokenize(model.tokenizer));
                    const result = await vision.complete({prompt, media_paths: media, n_predict: 48, temperature: 0, stop: ["\n"]}, explainSignal);
                    return {sentence: firstSentence(answerText, result.text), inputTokens: result.timings.prompt_n, outputTokens: result.tokens_predicted};
                },
                release() {
                    // The vision slot is held per completion (VisionEngine.complete).
                }
            };
        }
    };
}

type TokenNames = {vocabularySize: number, piece(id: Token): string};
/** Per model: label tokens repeat across rounds and requests, so each piece is read once. */
const tokenNamesOf = new WeakMap<LlamaModel, TokenNames>();

/**
 * The pieces the binding names tokens by (its tokens_to_output_formatted_string), each read with a line break before
 * it so no leading space is dropped, and the vocabulary's size (how many alternatives ask for all of them).
 */
function tokenNames(model: LlamaModel): TokenNames {
    let names = tokenNamesOf.get(model);
    if (names == null) {
        const newline = model.tokenize("\n", false);
        const pieces = new Map<Token, string>();
        const tokens = (model.fileInfo.metadata.tokenizer as {ggml?: {tokens?: readonly unknown[]}} | undefined)?.ggml?.tokens;
        names = {
            vocabularySize: tokens?.length ?? 262_144,
            piece(id) {
                let text = pieces.get(id);
                if (text == null) pieces.set(id, text = model.detokenize([id], true, newline));
                return text;
            }
        };
        tokenNamesOf.set(model, names);
    }
    return names;
}

/** `backend` (the text engine's) able to take requests with images, on `vision`. */
export function withVision(backend: DecisionBackend, vision: VisionEngine): DecisionBackend {
    return {
        model: backend.model,
        chatWrapper: backend.chatWrapper,
        get contextSize() {
            return backend.contextSize;
        },
        open: (firstTokens, signal) => backend.open(firstTokens, signal),
        withImages(request: NormalizedDecisionRequest) {
            const imagePath = (image: NormalizedImage) => request.endpoint === "systemone" ? ["x_svc", "images", image.name] : ["input"];
            return {backend: visionDecisionBackend(backend, vision, request.images, imagePath, request.maxSoftTokens), text: inputWithImages(request.images, request.text)};
        }
    };
}
