import type {ChatCompletionBody, JsonBody} from "../../../client/sdk/index.ts";
import {applyChatChunk} from "../chat/applyChatChunk.ts";
import {buildChatRequest} from "../chat/buildChatRequest.ts";
import {emptyReply} from "../chat/replyTypes.ts";
import {replyFromCompletion} from "../chat/replyFromCompletion.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {executeRun} from "./executeRun.ts";

/** Runs the chat playground's draft; refuses (with the editor's message) while a JSON field is invalid. */
export async function runChat(): Promise<void> {
    const store = useChatStore.getState();
    const {body, errors} = buildChatRequest(store.draft);
    const problems = Object.values(errors);
    if (problems.length > 0) {
        store.setRun({run: {status: "error", timing: {}, error: {message: `Fix the request first: ${problems.join("; ")}`}}});
        return;
    }
    await executeRun({
        kind: "chat",
        body,
        emptyReply,
        applyEvent: applyChatChunk,
        fromResult: replyFromCompletion,
        hasOutput: (reply) => reply.choices.some((choice) => choice.content || choice.reasoning || choice.toolCalls.length > 0),
        // The playground sends the body as edited, valid or not: the server's answer is the point.
        openStream: (client, request, options) => client.streamChatCompletions<JsonBody>(request as ChatCompletionBody, options),
        callOnce: (client, request, options) => client.chatCompletions<JsonBody>(request as ChatCompletionBody, options),
        update: (patch) => useChatStore.getState().setRun(patch)
    });
}
