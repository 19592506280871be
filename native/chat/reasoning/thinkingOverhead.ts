import {LlamaText, type ChatWrapper, type Tokenizer} from "node-llama-cpp";

/**
 * Tokens a thinking turn reads beyond the rendered prompt: the thought prefix node-llama-cpp injects when the
 * format opens a thought on every response (it is part of what the model reads, so part of `prompt_tokens`),
 * and the suffix it injects when a budget closes the thought (so the window check leaves room for it).
 */
export function thinkingOverhead(chatWrapper: ChatWrapper, tokenizer: Tokenizer): {prefix: number, suffix: number} {
    const thought = chatWrapper.settings.segments?.thought;
    if (thought == null) return {prefix: 0, suffix: 0};
    const count = (text: string | LlamaText) => LlamaText(text).tokenize(tokenizer, "trimLeadingSpace").length;
    const textPrefix = typeof thought.prefix === "string" || LlamaText.isLlamaText(thought.prefix);
    return {
        prefix: thought.openOnResponseStart === true && textPrefix ? count(thought.prefix as string | LlamaText) : 0,
        suffix: thought.suffix != null ? count(thought.suffix) : 0
    };
}
