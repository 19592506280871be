import type {LlamaModel, Token} from "node-llama-cpp";

/** Raw-text prompt tokens with the BOS token the model expects, exactly as they are evaluated. */
export function tokenizePrompt(model: LlamaModel, text: string): Token[] {
    const tokens = model.tokenize(text, false);
    const bos = model.tokens.bos;
    return bos != null && model.tokens.shouldPrependBosToken ? [bos, ...tokens] : tokens;
}
