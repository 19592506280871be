import type {ChatHistoryItem, ChatWrapper, LlamaModel, Token} from "node-llama-cpp";
import type {NormalizedQuestion, DecisionEngineResult, NormalizedDecisionRequest} from "../../protocol/decisions/types.ts";
import {buildQuestionRounds, type QuestionPresentation, resolveLabelTokens, type LabelTokens, type RoundInput} from "./rounds.ts";
import {reversedOrder, averageOrders, poolLabelLogits} from "./probabilities.ts";
import {ApiError} from "../../protocol/errors.ts";
import {fewestTokens, promptPieces, tokenizeLongText, tokenizePieces, TokenLimitError, type TokenBudget} from "../engine/promptTokens.ts";
import {LocalEngine} from "../engine/LocalEngine.ts";
import {combineLabelTree} from "./labelTree.ts";
import {type DecisionBackend, type DecisionRun, localDecisionBackend} from "./decisionBackend.ts";

export const decisionSystemPrompt = "You evaluate the input below and answer each question about it with the label of the best option only.";

/**
 * The chat history one question round is rendered from: input first and the question last, so every round of
 * a request shares the long input as one cached prefix. The text goes in as plain text: chat wrappers tokenize
 * it without special tokens, so a user cannot forge `<|im_end|>` or other template markers. `answer` prefills
 * the reply (explanations continue a reply that already states the answer).
 */
export function decisionHistory(text: string, questionPrompt: string, answer?: string): ChatHistoryItem[] {
    return [
        {type: "system", text: decisionSystemPrompt},
        {type: "user", text: `Input:\n${text}\n\n${questionPrompt}`},
        {type: "model", response: answer == null ? [] : [answer]}
    ];
}

/**
 * How a question is put to the model: its options in the given order and, with `orderDebias`, also reversed,
 * so each option is seen once early and once late and a position bias cancels in the average.
 */
export function questionPresentations(question: NormalizedQuestion, orderDebias: boolean): QuestionPresentation[] {
    const count = question.options.length;
    const given = Array.from({length: count}, (_, index) => index);
    return orderDebias
        ? [buildQuestionRounds(question, given), buildQuestionRounds(question, reversedOrder(count))]
        : [buildQuestionRounds(question, given)];
}

/**
 * What a request's input is rendered as in each round's history, so the input itself is tokenized once per request
 * rather than once per round (1 MB x 64 questions was tokenized 128 times, 33 s).
 * Private-use characters: no chat template rewrites them, and the system prompt before the input holds none.
 */
const inputPlaceholder = "\uE000decision input\uE000";

/**
 * The tokens of a request's decision histories, its input tokenized once: the run of plain text that holds the
 * input is cut after the input and the line breaks that follow it ("\n\nQuestion: ..."); the part up to the cut
 * is tokenized once and reused, the rest per round with "trimLeadingSpace" (tokenized after a "\n", the context it
 * has), so the tokens are those of one whole-prompt call wherever no token spans that line break. A template that
 * does not keep the placeholder is rendered with the input itself.
 */
class DecisionPrompts {
    private readonly engine: {model: LlamaModel, chatWrapper: ChatWrapper};
    private readonly text: string;
    private readonly budget: TokenBudget;
    /** The tokens of the run up to the cut, with the template text before the input and the line breaks after it. */
    private inputPrefix?: {before: string, lineBreaks: string, tokens: Token[]};

    public constructor(engine: {model: LlamaModel, chatWrapper: ChatWrapper}, text: string, budget: TokenBudget) {
        this.engine = engine;
        this.text = text;
        this.budget = budget;
    }

    public async tokens(questionPrompt: string): Promise<Token[]> {
        const {model, chatWrapper} = this.engine;
        const render = (text: string) => promptPieces(chatWrapper.generateContextState({chatHistory: decisionHistory(text, questionPrompt)}).contextText);
        const pieces = render(inputPlaceholder);
        const at = pieces.findIndex((piece) => typeof piece === "string" && piece.includes(inputPlaceholder));
        if (at < 0) return tokenizePieces(model, render(this.text), this.budget);
        const run = pieces[at] as string;
        const cut = run.indexOf(inputPlaceholder);
        const after = run.slice(cut + inputPlaceholder.length);
        const lineBreaks = /^\n*/.exec(after)![0];
        const before = run.slice(0, cut);
        if (this.inputPrefix?.before !== before || this.inputPrefix.lineBreaks !== lineBreaks) {
            const tokens = await tokenizeLongText(model, before + this.text + lineBreaks, "trimLeadingSpace", this.budget);
            this.inputPrefix = {before, lineBreaks, tokens};
        }
        const rest = after.slice(lineBreaks.length);
        return tokenizePieces(model, [...pieces.slice(0, at), {tokens: this.inputPrefix.tokens}, ...(rest === "" ? [] : [rest]), ...pieces.slice(at + 1)], this.budget);
    }
}

/** Template tokens after the question that decide how a label is tokenized (e.g. "<|im_start|>assistant\n"). */
const tailLength = 8;

export type DecisionEngineOptions = {
    /**
     * Ask every question with its options in the given order and reversed, and average (default true). Off
     * halves the rounds; kept as an engine option only (the wire format has no such field), to measure its cost.
     */
    orderDebias?: boolean
};

/** What the decision routes need of an engine (native/decisions/routes.ts). */
export interface DecisionEngine {
    decide(request: NormalizedDecisionRequest, signal: AbortSignal): Promise<DecisionEngineResult>;
}

/**
 * Answers typed questions with probabilities on a model's token logits: every question is asked in the given
 * option order and in reverse (averaged, to cancel position bias), over one shared evaluation of the input. The
 * rounds run on a DecisionBackend: the local engine, or an upstream engine sent the same token ids.
 */
export class LlamaDecisionEngine implements DecisionEngine {
    private readonly engine: DecisionBackend;
    private readonly orderDebias: boolean;
    private readonly labelCache = new Map<string, LabelTokens>();

    public constructor(engine: LocalEngine | DecisionBackend, {orderDebias = true}: DecisionEngineOptions = {}) {
        this.engine = engine instanceof LocalEngine ? localDecisionBackend(engine) : engine;
        this.orderDebias = orderDebias;
    }

    public async decide(request: NormalizedDecisionRequest, signal: AbortSignal): Promise<DecisionEngineResult> {
        // Images need a backend that can see (native/vision); its rounds read the input with the images' places.
        const seeing = request.images.length > 0 ? this.engine.withImages?.(request) : undefined;
        if (request.images.length > 0 && seeing == null)
            throw new ApiError(400, "request_rejected", `the request holds ${request.images.length} image(s), but the loaded model cannot read images`);
        const backend = seeing?.backend ?? this.engine;
        const text = seeing?.text ?? request.text;

        const contextSize = backend.contextSize;
        const tooLong = (tokens: number, atLeast: boolean) => new ApiError(400, "request_rejected",
            `the input and its longest question take ${atLeast ? "at least " : ""}${tokens} tokens, more than the ${contextSize}-token context of the loaded model`);
        // Spec §7 cause 6, from the byte count alone when even the fewest tokens the input could take do not fit.
        const fewest = fewestTokens(this.engine.model, Buffer.byteLength(request.text));
        if (fewest >= contextSize) throw tooLong(fewest, true);

        const presentations = request.questions.map((question) => questionPresentations(question, this.orderDebias));
        const rounds = presentations.flatMap((perQuestion) => perQuestion.flatMap((presentation) => presentation.rounds));
        const prompts = new DecisionPrompts(this.engine, text, {limit: contextSize - 1, signal});
        const inputs: RoundInput[] = [];
        try {
            for (const round of rounds) inputs.push(await this.roundInput(prompts, round.prompt, round.labels));
        } catch (error) {
            if (error instanceof TokenLimitError) throw tooLong(error.atLeast, true);
            throw error;
        }
        const longest = Math.max(...inputs.map((input) => input.tokens.length));
        if (longest >= contextSize) throw tooLong(longest, false);

        const run = await backend.open(inputs[0].tokens, signal);
        try {
            const evaluation = await run.evaluate(inputs, {signal, labelMass: request.labelMass});
            let roundIndex = 0;
            const labelMasses: number[] = [];
            const distributions = presentations.map((perQuestion) => {
                const rootMasses: number[] = [];
                const distribution = averageOrders(perQuestion.map((presentation) => {
                    const logitsByNode = new Map<string, number[]>();
                    for (const round of presentation.rounds) {
                        const logits = evaluation.logits[roundIndex];
                        logitsByNode.set(round.nodeKey, poolLabelLogits(logits.map((map) => [...map.keys()]), sparseLogits(logits)));
                        if (round.nodeKey === presentation.tree.key && evaluation.labelMasses) rootMasses.push(evaluation.labelMasses[roundIndex]);
                        roundIndex++;
                    }
                    return {order: presentation.order, probabilities: combineLabelTree(presentation.tree, logitsByNode, presentation.order.length)};
                }));
                // A question's label mass is its root round's, averaged over the orders asked (as its answer is). The
                // root round is where every option is still within reach; a nested round asks within a group the
                // model was steered into, and a product over rounds would shrink with depth whatever the prompt.
                if (rootMasses.length > 0) labelMasses.push(rootMasses.reduce((sum, mass) => sum + mass, 0) / rootMasses.length);
                return distribution;
            });

            const usage = {inputTokens: evaluation.inputTokens, outputTokens: 0};
            const explanations = request.explain
                ? await this.explainAll(run, {...request, text}, distributions, signal, (input, output) => {
                    usage.inputTokens += input;
                    usage.outputTokens += output;
                })
                : undefined;
            return {answers: distributions.map((probabilities, index) => ({probabilities, explanation: explanations?.[index], labelMass: labelMasses[index]})), usage};
        } finally {
            run.release();
        }
    }

    /**
     * The tokens of one round as the model reads them, ending where the label is the next token, and the ids
     * that spell each label there (public so tests can inspect exactly what the model reads).
     */
    public roundTokens(text: string, questionPrompt: string, labels: string[]): Promise<RoundInput> {
        return this.roundInput(new DecisionPrompts(this.engine, text, {limit: Infinity}), questionPrompt, labels);
    }

    private async roundInput(prompts: DecisionPrompts, questionPrompt: string, labels: string[]): Promise<RoundInput> {
        const rendered = await prompts.tokens(questionPrompt);
        const resolved = this.labelTokens(labels, rendered);
        return {tokens: [...rendered, ...resolved.extension], labelTokens: resolved.tokens};
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

    private async explainAll(run: DecisionRun, request: NormalizedDecisionRequest, distributions: number[][], signal: AbortSignal,
        countTokens: (input: number, output: number) => void): Promise<string[]> {
        const explanations: string[] = [];
        for (const [index, question] of request.questions.entries()) {
            const probabilities = distributions[index];
            const best = probabilities.indexOf(Math.max(...probabilities));
            const [presentation] = questionPresentations(question, false);
            const result = await run.explain({
                text: request.text,
                questionPrompt: presentation.rounds[0].prompt,
                answerText: question.kind === "yesno" ? (best === 0 ? "Yes" : "No") : question.options[best].text,
                signal
            });
            countTokens(result.inputTokens, result.outputTokens);
            explanations.push(result.sentence);
        }
        return explanations;
    }
}

/** poolLabelLogits reads logits by token id; a sparse array holds just the ids that were asked for. */
function sparseLogits(maps: Array<Map<Token, number>>): ArrayLike<number> {
    const values: number[] = [];
    for (const map of maps) for (const [id, logit] of map) values[id] = logit;
    return values;
}
