import assert from "node:assert/strict";
import {getLlama, LlamaLogLevel, resolveChatWrapper, type ChatWrapper, type Llama, type LlamaContext, type LlamaContextSequence, type LlamaModel, type Token} from "node-llama-cpp";
import {renderChatPrompt} from "../../../native/chat/turnPlan.ts";
import {decisionHistory} from "../../../native/decisions/LlamaDecisionEngine.ts";

// The independent side of the decision tests that recompute the server's numbers from the model's logits: the
// same GGUF loaded in-process with node-llama-cpp, a question round rendered with the engine's own prompt builders
// and evaluated fresh from an empty context (no shared prefix), the full vocabulary's logits read back, and the
// label token ids found by tokenizing the labels' spellings here rather than through the engine's label resolver.

export type Reference = {llama: Llama, model: LlamaModel, context: LlamaContext, sequence: LlamaContextSequence, chatWrapper: ChatWrapper};

/** Loads `modelPath` on the CPU with one thread, as a second copy beside the server's. */
export async function loadReference(modelPath: string): Promise<Reference> {
    const llama = await getLlama({gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error});
    const model = await llama.loadModel({modelPath});
    const context = await model.createContext({contextSize: 2048, sequences: 1, threads: {ideal: 1, min: 1}});
    return {llama, model, context, sequence: context.getSequence(), chatWrapper: resolveChatWrapper(model)};
}

export async function disposeReference(reference: Reference | undefined): Promise<void> {
    await reference?.context.dispose();
    await reference?.model.dispose();
}

/** Token ids that spell `label` as one token (as given, lower, upper, capitalised; with and without a leading space), minus ids another label also claims. */
export function labelIds(reference: Reference, labels: string[]): Token[][] {
    const spellings = (label: string) => {
        const cases = [label, label.toLowerCase(), label.toUpperCase(), label[0].toUpperCase() + label.slice(1).toLowerCase()];
        return [...cases, ...cases.map((variant) => ` ${variant}`)];
    };
    const perLabel = labels.map((label) => [...new Set(spellings(label).map((spelling) => reference.model.tokenize(spelling)).filter((tokens) => tokens.length === 1).map(([token]) => token))]);
    const claims = new Map<Token, number>();
    for (const ids of perLabel) for (const id of ids) claims.set(id, (claims.get(id) ?? 0) + 1);
    const owned = perLabel.map((ids) => ids.filter((id) => claims.get(id) === 1));
    owned.forEach((ids, index) => assert.ok(ids.length > 0, `label ${labels[index]} has no single-token spelling of its own`));
    return owned;
}

/** Per label its token ids, and the raw next-token logits of every token in the vocabulary after one round's prompt. */
export async function roundLogits(reference: Reference, text: string, prompt: string, labels: string[]): Promise<{ids: Token[][], logits: Map<Token, number>}> {
    const tokens = renderChatPrompt(reference.model, reference.chatWrapper, decisionHistory(text, prompt));
    return {ids: labelIds(reference, labels), logits: await nextTokenLogits(reference, tokens)};
}

/** The raw logits of every token in the vocabulary after `tokens`, evaluated fresh: nothing of an earlier prompt stays in the KV cache. */
export async function nextTokenLogits(reference: Reference, tokens: readonly Token[]): Promise<Map<Token, number>> {
    await reference.sequence.clearHistory();
    const input = tokens.map((token, index) => index < tokens.length - 1 ? token : [token, {generateNext: {logits: true}}] as const);
    const output = await reference.sequence.controlledEvaluate(input as any);
    const logits = output.at(-1)?.next?.logits;
    assert.ok(logits != null);
    assert.equal(logits.size, reference.model.fileInfo.metadata.tokenizer?.ggml?.tokens?.length, "the reference should see every token's logit");
    return logits;
}
