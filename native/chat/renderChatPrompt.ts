import type {ChatHistoryItem, ChatModelFunctions, ChatWrapper, LlamaModel, Token} from "node-llama-cpp";

/**
 * The tokens LlamaChat will evaluate for this history, rendered by the same chat wrapper before generation,
 * so the window can be checked and `prompt_tokens` reported exactly.
 */
export function renderChatPrompt(model: LlamaModel, chatWrapper: ChatWrapper, history: ChatHistoryItem[], functions?: ChatModelFunctions): Token[] {
    const {contextText} = chatWrapper.generateContextState({chatHistory: history, availableFunctions: functions});
    return contextText.tokenize(model.tokenizer);
}
