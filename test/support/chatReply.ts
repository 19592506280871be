// Test-only: a Reply that answers chat completions, Responses and decisions in the API's shapes. The reply's text is
// read from the request by `answer` (default: echoes the last user message), so a test decides what each row gets.
import {decisionReply} from "./decisionReply.ts";
import {json, type RecordedRequest, type Reply} from "./startTestServer.ts";

export type ChatReplyOptions = {delayMs?: number, answer?: (request: RecordedRequest) => string};

/** The text of the request's last user message (chat) or its input (Responses, when a string). */
export function promptText(request: RecordedRequest): string {
    const body = JSON.parse(request.body) as {messages?: Array<{content?: unknown}>, input?: unknown};
    const content = body.messages?.at(-1)?.content ?? body.input;
    return typeof content === "string" ? content : JSON.stringify(content);
}

export function chatReply(options: ChatReplyOptions = {}): Reply {
    const decisions = decisionReply();
    return async (res, request) => {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        if (res.destroyed) return;
        if (request.url.endsWith("/decisions") || request.url.endsWith("/systemone")) return decisions(res, request);
        const content = (options.answer ?? promptText)(request);
        if (request.url.endsWith("/responses"))
            return json(200, {id: "resp_1", object: "response", status: "completed", output: [{type: "message", role: "assistant", content: [{type: "output_text", text: content}]}], usage: {input_tokens: 7, output_tokens: 2, total_tokens: 9}})(res, request);
        return json(200, {id: "chatcmpl_1", object: "chat.completion", choices: [{index: 0, message: {role: "assistant", content}, finish_reason: "stop"}], usage: {prompt_tokens: 7, completion_tokens: 2, total_tokens: 9}})(res, request);
    };
}
