import type {ChatWrapper, LlamaModel, Token} from "node-llama-cpp";
import type {LocalEngine} from "../engine/LocalEngine.ts";
import type {NormalizedDecisionRequest} from "../../protocol/decisions/types.ts";
import {evaluateRounds, type RoundInput, type RoundsEvaluation} from "./rounds.ts";
import {explainAnswer} from "./explanations.ts";

// Decisions have one code path (LlamaDecisionEngine: prompts, label tokens, rounds, label trees, order averaging)
// above this interface, with two implementations: the local engine's leased sequence, and an OpenAI-compatible
// upstream engine (native/upstream/UpstreamDecisionBackend.ts) that is sent the very same token ids.

/** One explanation to write: the chosen answer is stated, the model continues it (explanations.ts). */
export type ExplainInput = {text: string, questionPrompt: string, answerText: string, signal: AbortSignal};
export type ExplainResult = {sentence: string, inputTokens: number, outputTokens: number};

/** Where one request's rounds are evaluated, held from the first round to the last explanation. */
export interface DecisionRun {
    /** Per round, the logits (or log-probabilities: any per-round shift cancels in the label softmax) of its label tokens. */
    evaluate(rounds: RoundInput[], options: {signal: AbortSignal, labelMass: boolean}): Promise<RoundsEvaluation>;
    explain(input: ExplainInput): Promise<ExplainResult>;
    release(): void;
}

/** What decisions are computed on: the tokenizer and chat template prompts are rendered with, and where rounds run. */
export interface DecisionBackend {
    /** The model's vocabulary (the loaded model, or a vocabulary-only copy of the upstream's model file). */
    readonly model: LlamaModel;
    readonly chatWrapper: ChatWrapper;
    /** Tokens a round may take: longer inputs are the 400 `request_rejected` of spec §7 cause 6. */
    readonly contextSize: number;
    /** Opens a run for a request whose first round reads `firstTokens` (the local engine leases the sequence sharing most of them). */
    open(firstTokens: Token[], signal: AbortSignal): Promise<DecisionRun>;
    /**
     * For a request with images: the backend its rounds run on and its input text with the images' places
     * (native/vision/visionDecisions.ts). Absent where the model cannot see: such requests are refused.
     */
    withImages?(request: NormalizedDecisionRequest): {backend: DecisionBackend, text: string};
}

/** The local engine as a decision backend: a leased sequence, rounds evaluated on it, explanations generated on it. */
export function localDecisionBackend(engine: LocalEngine): DecisionBackend {
    return {
        model: engine.model,
        chatWrapper: engine.chatWrapper,
        get contextSize() {
            return engine.context.contextSize;
        },
        async open(firstTokens, signal) {
            const lease = await engine.scheduler.acquire(firstTokens, signal);
            return {
                evaluate: (rounds, options) => evaluateRounds(lease.sequence, rounds, options),
                explain: (input) => explainAnswer({lease, chatWrapper: engine.chatWrapper, ...input}),
                release: () => lease.release()
            };
        }
    };
}
