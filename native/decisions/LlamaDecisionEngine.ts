import type {ChatHistoryItem, Token} from "node-llama-cpp";
import {ApiError} from "../../protocol/errors/ApiError.ts";
import type {DecisionEngineResult, NormalizedDecisionRequest, NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {renderChatPrompt} from "../chat/renderChatPrompt.ts";
import type {LocalEngine} from "../engine/LocalEngine.ts";
import type {SequenceLease} from "../engine/SequenceScheduler.ts";
import {buildQuestionRounds, type QuestionPresentation} from "./buildQuestionRounds.ts";
import {evaluateRounds} from "./evaluateRounds.ts";
import {explainAnswer} from "./explainAnswer.ts";
import {resolveLabelTokens, type LabelTokens} from "./resolveLabelTokens.ts";
import {averageOrders, reversedOrder} from "./utils/averageOrders.ts";
import {combineLabelTree} from "./utils/labelTree.ts";
import {poolLabelLogits} from "./utils/poolLabelLogits.ts";

/** Template tokens after the question that decide how a label is tokenized (e.g. "<|im_start|>assistant\n"). */
const tailLength = 8;
const systemPrompt = "You evaluate the input below and answer each question about it with the label of the best option only.";

/**
 * Answers typed questions with probabilities on a LocalEngine: every question is asked in the given option order
 * and in reverse (averaged, to cancel position bias), over one shared evaluation of the input.
 */
export class LlamaDecisionEngine {
    private readonly engine: LocalEngine;
    private readonly labelCache = new Map<string, LabelTokens>();

    public constructor(engine: LocalEngine) {
        this.engine = engine;
    }

    public async decide(request: NormalizedDecisionRequest, signal: AbortSignal): Promise<DecisionEngineResult> {
        if (request.images.length > 0)
            throw new ApiError(400, "request_rejected", `the request holds ${request.images.length} image(s), but the loaded model cannot read images`);

        const presentations = request.questions.map((question) => presentationsOf(question));
        const rounds = presentations.flatMap((perQuestion) => perQuestion.flatMap((presentation) => presentation.rounds));
        const inputs = rounds.map((round) => {
            const rendered = this.render(request.text, round.prompt);
            const labels = this.labelTokens(round.labels, rendered);
            return {tokens: [...rendered, ...labels.extension], labelTokens: labels.tokens};
        });
        const contextSize = this.engine.context.contextSize;
        const longest = Math.max(...inputs.map((input) => input.tokens.length));
        if (longest >= contextSize)
            throw new ApiError(400, "request_rejected", `the input and its longest question take ${longest} tokens, more than the ${contextSize}-token context of the loaded model`);

        const lease = await this.engine.scheduler.acquire(inputs[0].tokens, signal);
        try {
            const evaluation = await evaluateRounds(lease.sequence, inputs, signal);
            let roundIndex = 0;
            const distributions = presentations.map((perQuestion) => averageOrders(perQuestion.map((presentation) => {
                const logitsByNode = new Map<string, number[]>();
                for (const round of presentation.rounds) {
                    const logits = evaluation.logits[roundIndex];
                    const pooled = poolLabelLogits(logits.map((map) => [...map.keys()]), sparseLogits(logits));
                    logitsByNode.set(round.nodeKey, pooled);
                    roundIndex++;
                }
                return {order: presentation.order, probabilities: combineLabelTree(presentation.tree, logitsByNode, presentation.order.length)};
            })));

            let outputTokens = 0;
            const explanations = request.explain
                ? await this.explainAll(lease, request, distributions, signal, (tokens) => outputTokens += tokens)
                : undefined;
            const suffixTokens = inputs.reduce((sum, input) => sum + input.tokens.length - evaluation.sharedPrefixTokens, 0);
            return {
                answers: distributions.map((probabilities, index) => ({probabilities, explanation: explanations?.[index]})),
                usage: {inputTokens: evaluation.sharedPrefixTokens + suffixTokens, outputTokens}
            };
        } finally {
            lease.release();
        }
    }

    /** Label tokens depend only on the labels and the template's last tokens, so they are worked out once per pair. */
    private labelTokens(labels: string[], rendered: Token[]): LabelTokens {
        const tail = rendered.slice(-tailLength);
        const key = `${labels.join("\u0000")}\u0001${tail.join(",")}`;
        let cached = this.labelCache.get(key);
        if (cached == null) {
            cached = resolveLabelTokens(this.engine.model, labels, tail);
            this.labelCache.set(key, cached);
        }
        return cached;
    }

    private render(text: string, questionPrompt: string): Token[] {
        return renderChatPrompt(this.engine.model, this.engine.chatWrapper, this.history(text, questionPrompt));
    }

    private history(text: string, questionPrompt: string): ChatHistoryItem[] {
        // Input first and the question last, so every question shares the long input as a cached prefix.
        // The text goes in as plain text: the chat wrapper tokenizes it without special tokens, so a user cannot
        // forge `<|im_end|>` or other template markers.
        return [
            {type: "system", text: systemPrompt},
            {type: "user", text: `Input:\n${text}\n\n${questionPrompt}`},
            {type: "model", response: []}
        ];
    }

    private async explainAll(lease: SequenceLease, request: NormalizedDecisionRequest, distributions: number[][], signal: AbortSignal,
        countTokens: (tokens: number) => void): Promise<string[]> {
        const explanations: string[] = [];
        for (const [index, question] of request.questions.entries()) {
            const probabilities = distributions[index];
            const best = probabilities.indexOf(Math.max(...probabilities));
            const [presentation] = presentationsOf(question);
            const result = await explainAnswer({
                lease,
                chatWrapper: this.engine.chatWrapper,
                history: this.history(request.text, presentation.rounds[0].prompt),
                answerText: question.kind === "yesno" ? (best === 0 ? "Yes" : "No") : question.options[best].text,
                signal
            });
            countTokens(result.outputTokens);
            explanations.push(result.sentence);
        }
        return explanations;
    }
}

/** The given order and its reverse: each option is seen once early and once late. */
function presentationsOf(question: NormalizedQuestion): QuestionPresentation[] {
    const count = question.options.length;
    const given = Array.from({length: count}, (_, index) => index);
    return [buildQuestionRounds(question, given), buildQuestionRounds(question, reversedOrder(count))];
}

/** poolLabelLogits reads logits by token id; a sparse array holds just the ids that were asked for. */
function sparseLogits(maps: Array<Map<Token, number>>): ArrayLike<number> {
    const values: number[] = [];
    for (const map of maps) for (const [id, logit] of map) values[id] = logit;
    return values;
}
