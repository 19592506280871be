import type {LlamaModel, Token, LlamaContextSequence} from "node-llama-cpp";
import {commonPrefixLength} from "../engine/SequenceScheduler.ts";
import {labelVariants, logSumExp} from "./probabilities.ts";
import {ApiError} from "../../protocol/errors.ts";
import type {NormalizedOption, NormalizedQuestion} from "../../protocol/decisions/types.ts";
import {planLabelTree, labelTreeNodes, type LabelTreeNode} from "./labelTree.ts";

export type LabelTokens = {
    /** Tokens every label starts with here (e.g. a lone "▁" in small SentencePiece vocabularies): appended to the prompt. */
    extension: Token[],
    /** Per label, the first tokens after the extension that spell it, pooled over its case and spacing variants. */
    tokens: Token[][]
};

/**
 * Which next tokens mean which label, measured where the answer is written: each variant of each label is
 * tokenized after the prompt's own last tokens, so tokenizer merges and space prefixes come out as the model
 * would see them. A first token shared by two labels says nothing about either and is dropped; when that leaves
 * a label with none (all labels start with the same piece), that common piece joins the prompt and the next
 * token decides.
 */
export function resolveLabelTokens(model: LlamaModel, labels: readonly string[], promptTail: readonly Token[]): LabelTokens {
    const tailText = model.detokenize(promptTail, true);
    const base = model.tokenize(tailText, true);
    const continuation = (text: string): Token[] => {
        const full = model.tokenize(tailText + text, true);
        return commonPrefixLength(full, base) === base.length ? full.slice(base.length) : [];
    };
    const variants = labels.map((label) => labelVariants(label).map(continuation).filter((tokens) => tokens.length > 0));

    const direct = distinctFirstTokens(variants, 0);
    if (direct.every((tokens) => tokens.length > 0)) return {extension: [], tokens: direct};

    const canonical = labels.map((label) => continuation(label));
    let shared = canonical[0].length;
    for (const tokens of canonical) shared = Math.min(shared, commonPrefixLength(canonical[0], tokens));
    const extended = distinctFirstTokens(canonical.map((tokens) => [tokens]), shared);
    if (shared > 0 && extended.every((tokens) => tokens.length > 0)) return {extension: canonical[0].slice(0, shared), tokens: extended};
    throw new Error(`the loaded model's tokenizer cannot tell the labels ${labels.map((label) => JSON.stringify(label)).join(", ")} apart by their first token`);
}

/** Per label, the tokens at `position` of its variants that no other label also starts with there. */
function distinctFirstTokens(variantsPerLabel: Token[][][], position: number): Token[][] {
    const owners = new Map<Token, Set<number>>();
    variantsPerLabel.forEach((variants, label) => {
        for (const tokens of variants) {
            const token = tokens[position];
            if (token == null) continue;
            if (!owners.has(token)) owners.set(token, new Set());
            owners.get(token)!.add(label);
        }
    });
    return variantsPerLabel.map((variants, label) => [...new Set(variants.map((tokens) => tokens[position]).filter((token) =>
        token != null && owners.get(token)!.size === 1 && owners.get(token)!.has(label)))]);
}

/** One model round of a question: the text that asks it and the labels whose next-token logits answer it. */
export type QuestionRound = {nodeKey: string, prompt: string, labels: string[]};

export type QuestionPresentation = {
    /** order[position] = index of the option shown at that position. */
    order: number[],
    tree: LabelTreeNode,
    rounds: QuestionRound[]
};

/**
 * The rounds that ask `question` with its options shown in `order`. Yes/no questions are one round answered
 * "Yes"/"No"; choice and score questions list lettered options, in nested rounds when there are more than 26.
 */
export function buildQuestionRounds(question: NormalizedQuestion, order: number[]): QuestionPresentation {
    const shown = order.map((index) => question.options[index]);
    const tree = planLabelTree(shown.length);
    if (question.kind === "yesno") {
        // The pair is asked in the presented order ("Yes or No" / "No or Yes"), so order debiasing applies here too.
        const words = order.map((index) => index === 0 ? "Yes" : "No");
        const criteria = shown.map((option) => option.description != null ? `${option.text === "yes" ? "Yes" : "No"} means: ${option.description}\n` : "").join("");
        return {
            order,
            tree,
            rounds: [{nodeKey: tree.key, labels: words, prompt: `Question: ${question.instructions}\n${criteria}Reply ${words[0]} or ${words[1]}.\nAnswer:`}]
        };
    }
    const rounds = labelTreeNodes(tree).map((node): QuestionRound => {
        const lines = node.children.map((child) => child.node == null
            ? `${child.label}. ${describeOption(shown[child.options[0]])}`
            : `${child.label}. one of: ${child.options.map((position) => shown[position].text).join("; ")}`);
        const narrowed = node.key === "" ? "" : " (the answer is among these)";
        // The instruction comes before the options: the text both orders share is then read once per question.
        return {
            nodeKey: node.key,
            labels: node.children.map((child) => child.label),
            prompt: `Question: ${question.instructions}\nReply with the letter of the best option.\nOptions${narrowed}:\n${lines.join("\n")}\nAnswer:`
        };
    });
    return {order, tree, rounds};
}

function describeOption(option: NormalizedOption): string {
    return option.description != null && option.description !== "" ? `${option.text}: ${option.description}` : option.text;
}

export type RoundInput = {tokens: Token[], labelTokens: Token[][]};

export type RoundsEvaluation = {
    /** Pooled inputs: per round, per label, the logits of that label's token ids. */
    logits: Array<Array<Map<Token, number>>>,
    /**
     * Per round, when asked for: the label mass, the full-vocabulary softmax probability summed over every label
     * token id of the round (all pooled spellings). Where the labels' common first piece was appended to the prompt
     * (LabelTokens.extension), it is the mass given that piece.
     */
    labelMasses?: number[],
    /** Tokens the model read: the shared prefix once (counted even when it was already cached) plus every round's own new tokens. */
    inputTokens: number
};

type ControlledInput = Parameters<LlamaContextSequence["controlledEvaluate"]>[0];

/**
 * Evaluates the prompt prefix all rounds share once, then each round on top of whatever the previous round left
 * that it can reuse: rounds come grouped by question, so a question's text is read once and its orders and
 * nested rounds add only their own short tails. N questions therefore cost one prefill plus N short suffixes.
 * The last token of every round is evaluated afresh, as its next-token logits are the answer.
 */
export async function evaluateRounds(sequence: LlamaContextSequence, rounds: RoundInput[], {signal, labelMass = false}: {signal?: AbortSignal, labelMass?: boolean} = {}): Promise<RoundsEvaluation> {
    let prefixLength = rounds[0].tokens.length - 1;
    for (const round of rounds) prefixLength = Math.min(prefixLength, commonPrefixLength(rounds[0].tokens, round.tokens), round.tokens.length - 1);
    const prefix = rounds[0].tokens.slice(0, prefixLength);

    const cached = commonPrefixLength(sequence.contextTokens, prefix);
    if (cached < sequence.contextTokens.length)
        await sequence.eraseContextTokenRanges([{start: cached, end: sequence.contextTokens.length}]);
    if (cached < prefix.length) await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(cached));

    let inputTokens = prefix.length;
    let current: readonly Token[] = prefix;
    const logits: RoundsEvaluation["logits"] = [];
    const labelMasses: number[] = [];
    for (const round of rounds) {
        signal?.throwIfAborted();
        const keep = Math.max(prefixLength, Math.min(commonPrefixLength(current, round.tokens), round.tokens.length - 1));
        if (current.length > keep) await sequence.eraseContextTokenRanges([{start: keep, end: current.length}]);
        const fresh = round.tokens.slice(keep);
        const wanted = round.labelTokens.flat();
        // The label mass needs the softmax's normaliser over the whole vocabulary: node-llama-cpp sums
        // exp(logit - best) natively (totalLogitWeight), and includeTop: 1 brings back the best logit it is relative
        // to, so no vocabulary-sized array crosses into JavaScript. Requests without the mass skip both.
        const generateNext = labelMass
            ? {logits: {filter: {tokens: wanted, includeTop: 1}}, totalLogitWeight: true}
            : {logits: {filter: {tokens: wanted}}};
        const input = fresh.map((token, index) => index < fresh.length - 1 ? token : [token, {generateNext}] as const);
        const output = await sequence.controlledEvaluate(input as ControlledInput);
        const next = output.at(-1)?.next.logits ?? new Map<Token, number>();
        logits.push(round.labelTokens.map((ids) => new Map(ids.map((id) => [id, next.get(id) ?? -Infinity]))));
        if (labelMass) labelMasses.push(labelMassOf(next, output.at(-1)?.next.totalLogitWeight, wanted));
        inputTokens += fresh.length;
        current = round.tokens;
    }
    // Leave just the shared prefix, so the next request on the same input reuses it and nothing else.
    if (current.length > prefixLength) await sequence.eraseContextTokenRanges([{start: prefixLength, end: current.length}]);
    return {logits, inputTokens, ...(labelMass ? {labelMasses} : {})};
}

/**
 * The share of the next-token distribution on `labelIds`: `logits` holds their logits and the best one, `weight` the
 * sum of exp(logit - best) over the vocabulary, so log Z = best + ln(weight) and each id's probability is
 * exp(logit - log Z). Ids are counted once, as poolLabelLogits does.
 */
export function labelMassOf(logits: ReadonlyMap<Token, number>, weight: number | undefined, labelIds: readonly Token[]): number {
    if (weight == null || !(weight >= 1) || logits.size === 0)
        throw new ApiError(500, "internal_error", "node-llama-cpp returned no vocabulary total for the answer position, so the label mass could not be computed");
    const logZ = Math.max(...logits.values()) + Math.log(weight);
    return Math.exp(logSumExp([...new Set(labelIds)].map((id) => logits.get(id) ?? -Infinity)) - logZ);
}
