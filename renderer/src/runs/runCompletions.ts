import type {CompletionBody, JsonBody} from "../../../client/sdk/index.ts";
import {emptyReply} from "../chat/replyTypes.ts";
import {applyCompletionChunk} from "../completions/applyCompletionChunk.ts";
import {buildCompletionsRequest} from "../completions/buildCompletionsRequest.ts";
import {useCompletionsStore} from "../state/useCompletionsStore.ts";
import {executeRun} from "./executeRun.ts";

export async function runCompletions(): Promise<void> {
    await executeRun({
        kind: "completions",
        body: buildCompletionsRequest(useCompletionsStore.getState().draft),
        emptyReply,
        applyEvent: applyCompletionChunk,
        // A whole completion reads like one big chunk: its `text` is the full answer.
        fromResult: (data) => ({...applyCompletionChunk(emptyReply(), data), chunks: 0}),
        hasOutput: (reply) => reply.choices.some((choice) => choice.content !== ""),
        openStream: (client, request, options) => client.streamCompletions<JsonBody>(request as CompletionBody, options),
        callOnce: (client, request, options) => client.completions<JsonBody>(request as CompletionBody, options),
        update: (patch) => useCompletionsStore.getState().setRun(patch)
    });
}
