import type {JsonBody, ResponsesBody} from "../../../client/sdk/index.ts";
import {applyResponsesEvent, outputTextOf, reasoningTextOf} from "../responses/applyResponsesEvent.ts";
import {buildResponsesRequest} from "../responses/buildResponsesRequest.ts";
import {emptyResponsesReply, type ResponsesStreamEvent} from "../responses/types.ts";
import {useResponsesStore} from "../state/useResponsesStore.ts";
import {executeRun} from "./executeRun.ts";

export async function runResponses(): Promise<void> {
    await executeRun({
        kind: "responses",
        body: buildResponsesRequest(useResponsesStore.getState().draft),
        emptyReply: emptyResponsesReply,
        applyEvent: (reply, event) => applyResponsesEvent(reply, event as ResponsesStreamEvent),
        fromResult: (data) => ({
            ...emptyResponsesReply(),
            outputText: outputTextOf(data) ?? "",
            reasoningText: reasoningTextOf(data),
            status: typeof data.status === "string" ? data.status : undefined,
            usage: data.usage as Record<string, unknown> | undefined,
            response: data
        }),
        hasOutput: (reply) => reply.outputText !== "" || reply.reasoningText !== "",
        openStream: (client, request, options) => client.streamResponses<ResponsesStreamEvent>(request as ResponsesBody, options),
        callOnce: (client, request, options) => client.responses<JsonBody>(request as ResponsesBody, options),
        update: (patch) => useResponsesStore.getState().setRun(patch)
    });
}
