import type {LlamaModel, Token} from "node-llama-cpp";
import {commonPrefixLength} from "../engine/utils/commonPrefixLength.ts";
import {labelVariants} from "./utils/poolLabelLogits.ts";

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
