import {getLlama, LlamaLogLevel, resolveChatWrapper, type ChatWrapper, type Llama, type LlamaModel, type Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors.ts";
import type {DecisionEngineResult, NormalizedDecisionRequest} from "../../protocol/decisions/types.ts";
import type {DecisionBackend, DecisionRun, ExplainInput, ExplainResult} from "../decisions/decisionBackend.ts";
import {LlamaDecisionEngine, decisionHistory, type DecisionEngine} from "../decisions/LlamaDecisionEngine.ts";
import {explanationOpening, firstSentence} from "../decisions/explanations.ts";
import type {RoundInput, RoundsEvaluation} from "../decisions/rounds.ts";
import {promptPieces, tokenizePieces} from "../engine/promptTokens.ts";
import {type LabelMethod, probeLabelMethod, readLabelLogprobs} from "./labelProbabilities.ts";
import type {UpstreamClient} from "./UpstreamClient.ts";
import {onceSucceeded} from "./upstreamFacts.ts";

// Decisions in front of an upstream engine: the same LlamaDecisionEngine as the local engine, so the
// same prompts, label tokens, rounds, label trees and order averaging, on a DecisionBackend whose rounds are
// evaluated by the upstream. Prompts are tokenized here with a vocabulary-only copy of the upstream's model file
// (the same chat template and tokenizer node-llama-cpp resolves locally) and sent as token ids, so the upstream
// reads exactly the tokens the local engine would.

/** The upstream's model file read for its vocabulary and chat template only (no weights, no context). */
export type UpstreamVocabulary = {model: LlamaModel, chatWrapper: ChatWrapper, dispose(): Promise<void>};

export async function loadUpstreamVocabulary(modelPath: string): Promise<UpstreamVocabulary> {
    const llama: Llama = await getLlama({gpu: false, build: "never", logLevel: LlamaLogLevel.error});
    try {
        const model = await llama.loadModel({modelPath, vocabOnly: true});
        return {model, chatWrapper: resolveChatWrapper(model), dispose: async () => {
            await model.dispose();
            await llama.dispose();
        }};
    } catch (error) {
        await llama.dispose();
        throw error;
    }
}

/** Rounds sent at once after the first (which alone fills the upstream's prefix cache with the shared input). */
const concurrentRounds = 4;
const maxExplanationTokens = 48;
/** The probe's few one-token requests take milliseconds on a live engine; past this the engine counts as down. */
export const probeTimeoutMs = 30_000;

/** A DecisionBackend whose rounds and explanations run on the upstream, by the probed label method. */
export class UpstreamDecisionBackend implements DecisionBackend {
    public readonly model: LlamaModel;
    public readonly chatWrapper: ChatWrapper;
    public readonly contextSize: number;
    private readonly upstream: UpstreamClient;
    private readonly upstreamModel: string;
    private readonly method: LabelMethod;

    public constructor({upstream, upstreamModel, vocabulary, contextSize, method}: {
        upstream: UpstreamClient, upstreamModel: string, vocabulary: UpstreamVocabulary, contextSize: number, method: LabelMethod
    }) {
        this.upstream = upstream;
        this.upstreamModel = upstreamModel;
        this.model = vocabulary.model;
        this.chatWrapper = vocabulary.chatWrapper;
        this.contextSize = contextSize;
        this.method = method;
    }

    /** A run counts in the front's busy gauge (`svc_sequences_busy`) until released, as a leased local sequence does. */
    public async open(): Promise<DecisionRun> {
        this.upstream.active++;
        let released = false;
        return {
            evaluate: (rounds, options) => this.evaluate(rounds, options),
            explain: (input) => this.explain(input),
            release: () => {
                if (!released) this.upstream.active--;
                released = true;
            }
        };
    }

    private async evaluate(rounds: RoundInput[], {signal, labelMass}: {signal: AbortSignal, labelMass: boolean}): Promise<RoundsEvaluation> {
        // The mass needs the whole vocabulary's normaliser, which the biased request removes by design.
        if (labelMass) throw new ApiError(400, "invalid_request", "x_svc.label_mass is served by the local engine only; this server fronts an upstream engine");
        const logits: RoundsEvaluation["logits"] = new Array(rounds.length);
        let inputTokens = 0;
        const evaluateOne = async (index: number) => {
            const round = rounds[index];
            const reading = await readLabelLogprobs(this.upstream, this.upstreamModel, this.method, round.tokens, round.labelTokens.flat(), signal);
            logits[index] = round.labelTokens.map((ids) => new Map(ids.map((id) => [id, reading.logprobs.get(id) ?? -Infinity])));
            inputTokens += reading.inputTokens;
        };
        await evaluateOne(0);
        let next = 1;
        let failed = false;
        const worker = async () => {
            try {
                while (next < rounds.length && !failed) await evaluateOne(next++);
            } catch (error) {
                // The request fails with the first error; the other workers stop asking for rounds nobody will read.
                failed = true;
                throw error;
            }
        };
        await Promise.all(Array.from({length: Math.min(concurrentRounds, rounds.length - 1)}, worker));
        return {logits, inputTokens};
    }

    /** The local engine's explanation (explanations.ts): the stated answer continued greedily to the end of its line. */
    private async explain({text, questionPrompt, answerText, signal}: ExplainInput): Promise<ExplainResult> {
        const history = decisionHistory(text, questionPrompt, explanationOpening(answerText));
        const prompt = await tokenizePieces(this.model, promptPieces(this.chatWrapper.generateContextState({chatHistory: history}).contextText), {limit: Infinity, signal});
        const reply = await this.upstream.postJson<{choices?: Array<{text?: string}>, usage?: {prompt_tokens?: number, completion_tokens?: number}}>("/completions",
            {model: this.upstreamModel, prompt, max_tokens: maxExplanationTokens, temperature: 0, stop: ["\n"]}, signal);
        return {
            sentence: firstSentence(answerText, reply.choices?.[0]?.text ?? ""),
            inputTokens: reply.usage?.prompt_tokens ?? prompt.length,
            outputTokens: reply.usage?.completion_tokens ?? 0
        };
    }
}

/**
 * The decision engine of an upstream front: the probe runs on the first decision request (and again after a
 * failure, so an upstream that was down at startup is picked up once it is back); until a method is found every
 * decision request gets the probe's answer, a 502/503 while the upstream is unreachable or a 503 naming why it
 * cannot give label probabilities (spec §7).
 */
export class UpstreamDecisionEngine implements DecisionEngine {
    /**
     * The engine once the probe found a method; startup calls it to print the outcome. The probe is shared by the
     * requests that wait for it, so it runs on its own deadline, not on one client's signal.
     */
    public readonly ready: () => Promise<ProbedDecisions>;

    public constructor(setup: (signal: AbortSignal) => Promise<ProbedDecisions>) {
        this.ready = onceSucceeded(() => setup(AbortSignal.timeout(probeTimeoutMs)));
    }

    public async decide(request: NormalizedDecisionRequest, signal: AbortSignal): Promise<DecisionEngineResult> {
        return (await this.ready()).engine.decide(request, signal);
    }
}

export type ProbedDecisions = {engine: LlamaDecisionEngine, method: LabelMethod};

/** Finds the label method on `upstream` and builds the decision engine on it; throws the 503 when there is none. */
export async function createUpstreamDecisionEngine({upstream, upstreamModel, vocabulary, contextSize, signal}: {
    upstream: UpstreamClient, upstreamModel: string, vocabulary: UpstreamVocabulary, contextSize: number, signal: AbortSignal
}): Promise<ProbedDecisions> {
    const {model} = vocabulary;
    const bos = model.tokens.bos != null && model.tokens.shouldPrependBosToken ? [model.tokens.bos] : [];
    const prompt: Token[] = [...bos, ...model.tokenize("Question: is the sky blue?\nAnswer:")];
    // Probe ids: tokens of rare words, the two the model favours least likely here come first after the filter.
    const candidates = model.tokenize(" zebra xylophone quantum marmalade");
    const probe = await probeLabelMethod(upstream, upstreamModel, prompt, candidates, signal);
    if ("unavailable" in probe) throw new ApiError(503, "service_unavailable", probe.unavailable);
    return {engine: new LlamaDecisionEngine(new UpstreamDecisionBackend({upstream, upstreamModel, vocabulary, contextSize, method: probe.method})), method: probe.method};
}
