import type {ChatHistoryItem} from "node-llama-cpp";

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
