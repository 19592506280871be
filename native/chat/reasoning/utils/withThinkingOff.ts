import type {ChatHistoryItem} from "node-llama-cpp";

/**
 * Turns thinking off the way thinking templates do: the open model turn that the chat wrapper renders last gets
 * an empty, closed thought (Qwen3's `enable_thinking: false` renders the same `<think>\n\n</think>`), so the
 * answer starts at once. With a thought budget of 0 as well, the model cannot open another one.
 * (Thinking "on" needs nothing: a thinking format opens its thought itself, or lets the model open it. Pre-filling
 * an open thought instead would escape node-llama-cpp's thought budget, which only counts thoughts it opened.)
 */
export function withThinkingOff(history: ChatHistoryItem[]): ChatHistoryItem[] {
    const last = history.at(-1);
    if (last?.type !== "model") return history;
    return [...history.slice(0, -1), {type: "model", response: [...last.response, {type: "segment", segmentType: "thought", text: "", ended: true}]}];
}
