import {setImmediate as nextTurn} from "node:timers/promises";
import {type LlamaModel, type LlamaText, type Token, LlamaVocabularyType, SpecialToken, SpecialTokensText} from "node-llama-cpp";

// Tokenizing is one synchronous native call: a 10 MB chat message held the engine's only thread for 3.3 s and
// grew its RSS by 519 MB before it was refused, and a decision input was tokenized again for every question round
// (1 MB x 64 questions: 33 s, +1.4 GB). Three defences, in the order a request meets them:
// 1. fewestTokens: a lower bound from the byte count alone refuses text that cannot fit, before any tokenizing;
// 2. tokenizePieces: long text is tokenized in chunks, yielding to the event loop between them and stopping as
//    soon as the caller's limit is passed, so the work is bounded by the window, not by the body;
// 3. callers tokenize a long text once per request (the decision input, the chat history shared by attempts).

const longestByModel = new WeakMap<LlamaModel, number>();

/**
 * Vocabularies whose tokens spell the input verbatim (apart from the space marker), so that one token never covers
 * more input bytes than it detokenizes to. WordPiece and Unigram normalise (drop whitespace, NFKC), so bytes say
 * nothing about their token count, and no bound is claimed for them.
 */
const verbatimVocabularies = new Set<string>([LlamaVocabularyType.spm, LlamaVocabularyType.bpe, LlamaVocabularyType.rwkv]);

/**
 * The most input bytes one token of `model` can stand for: the longest detokenized token, plus one for the leading
 * space a lone SentencePiece token loses when detokenized. Worked out once per model (1,174 tokens took 2 ms; about
 * 0.2 s for a 150,000-token vocabulary); Infinity when the vocabulary gives no such bound.
 */
export function longestTokenBytes(model: LlamaModel): number {
    let longest = longestByModel.get(model);
    if (longest != null) return longest;
    const vocabularySize = model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length;
    if (!verbatimVocabularies.has(model.vocabularyType) || vocabularySize == null) longest = Infinity;
    else {
        longest = 0;
        for (let id = 0; id < vocabularySize; id++)
            longest = Math.max(longest, Buffer.byteLength(model.detokenize([id as Token], false)));
        longest += 1;
    }
    longestByModel.set(model, longest);
    return longest;
}

/** Fewer tokens than this cannot hold `bytes` bytes of plain text: each token covers at most longestTokenBytes. */
export function fewestTokens(model: LlamaModel, bytes: number): number {
    return Math.ceil(bytes / longestTokenBytes(model));
}

/** UTF-8 bytes of the given texts, without building them into one string. */
export function textBytes(texts: Iterable<string>): number {
    let bytes = 0;
    for (const text of texts) bytes += Buffer.byteLength(text);
    return bytes;
}

/** Tokenizing stopped because the text takes more than the caller's limit: at least `atLeast` tokens. */
export class TokenLimitError extends Error {
    public readonly atLeast: number;

    public constructor(atLeast: number, limit: number) {
        super(`the text takes at least ${atLeast} tokens, more than the ${limit} that fit`);
        this.name = "TokenLimitError";
        this.atLeast = atLeast;
    }
}

export type TokenBudget = {
    /**
     * Most tokens the caller can use: a long text stops being tokenized (TokenLimitError) once more are found with
     * text still left. What is tokenized to its end is returned whole, so the caller can report its exact count.
     */
    limit: number,
    signal?: AbortSignal,
    /** Long texts already tokenized for this request (the same history rendered for two attempts), by text. */
    memo?: Map<string, {firstOptions: "trimLeadingSpace" | undefined, tokens: Token[]}>
};

/** A prompt as LlamaText tokenizes it: runs of plain text, special tokens, and pieces a caller tokenized already. */
export type PromptPiece = string | SpecialToken | SpecialTokensText | {tokens: readonly Token[]};

/** The pieces of `text`, adjacent strings merged into one run as LlamaText.tokenize merges them. */
export function promptPieces(text: LlamaText): PromptPiece[] {
    const pieces: PromptPiece[] = [];
    for (const value of text.values) {
        const last = pieces.at(-1);
        if (typeof value === "string" && typeof last === "string") pieces[pieces.length - 1] = last + value;
        else if (typeof value !== "string" || value !== "") pieces.push(value);
    }
    return pieces;
}

/**
 * The tokens of `pieces`, the same as LlamaText.tokenize gives for them (node-llama-cpp 3.22: every plain run with
 * "trimLeadingSpace", special text trimmed when something precedes it), except that runs longer than one chunk are
 * tokenized by tokenizeLongText.
 */
export async function tokenizePieces(model: LlamaModel, pieces: readonly PromptPiece[], budget: TokenBudget): Promise<Token[]> {
    const tokens: Token[] = [];
    for (const piece of pieces) {
        if (typeof piece === "string") await tokenizeLongText(model, piece, "trimLeadingSpace", budget, tokens);
        else if (piece instanceof SpecialToken) append(tokens, piece.tokenize(model.tokenizer));
        else if (piece instanceof SpecialTokensText) append(tokens, piece.tokenize(model.tokenizer, tokens.length > 0));
        else append(tokens, piece.tokens);
    }
    return tokens;
}

/** Characters tokenized per call: 16,384 characters took 2-15 ms on the fixtures, so other requests wait no longer. */
const chunkCharacters = 16_384;
/** How far back from a chunk's end a line break (or else a space) is looked for to cut at. */
const cutWindow = 4_096;

/**
 * Appends the tokens of `text` to `into`: in one call when short; else chunk by chunk, awaiting the event loop
 * between chunks, and throwing TokenLimitError when `budget.limit` is passed with text still left. Chunks are cut after a line
 * break (else before a space), and each later chunk is tokenized with "trimLeadingSpace", which node-llama-cpp
 * implements by tokenizing it after a "\n" and dropping that: the same context the text had at the cut, so the
 * tokens match one whole-text call wherever no token spans a line break. Only a line of 4,096 characters without
 * a space is cut mid-word.
 */
export async function tokenizeLongText(model: LlamaModel, text: string, firstOptions: "trimLeadingSpace" | undefined,
    budget: TokenBudget, into: Token[] = []): Promise<Token[]> {
    if (text.length <= chunkCharacters) {
        append(into, model.tokenize(text, false, firstOptions));
        return into;
    }
    const memoized = budget.memo?.get(text);
    if (memoized != null && memoized.firstOptions === firstOptions) {
        append(into, memoized.tokens);
        return into;
    }
    const start = into.length;
    for (let from = 0; from < text.length;) {
        if (from > 0) {
            if (into.length > budget.limit) throw new TokenLimitError(into.length, budget.limit);
            await nextTurn();
            budget.signal?.throwIfAborted();
        }
        const to = cutPoint(text, from + chunkCharacters);
        append(into, model.tokenize(text.slice(from, to), false, from === 0 ? firstOptions : "trimLeadingSpace"));
        from = to;
    }
    budget.memo?.set(text, {firstOptions, tokens: into.slice(start)});
    return into;
}

/** Where to end a chunk that should end near `target`: after a line break, else before a space, never inside a surrogate pair. */
function cutPoint(text: string, target: number): number {
    if (target >= text.length) return text.length;
    const floor = target - cutWindow;
    for (let index = target; index > floor; index--)
        if (text[index - 1] === "\n" && text[index] !== "\n" && text[index] !== "\r") return index;
    for (let index = target; index > floor; index--)
        if (text[index] === " " && text[index - 1] !== " ") return index;
    const code = text.charCodeAt(target - 1);
    return code >= 0xd800 && code <= 0xdbff ? target + 1 : target;
}

function append(into: Token[], tokens: readonly Token[]) {
    for (const token of tokens) into.push(token);
}
