import type {JsonBody} from "../../../client/sdk/index.ts";
import {draftFromChatRequest} from "../chat/draftFromChatRequest.ts";
import type {ChatReply} from "../chat/replyTypes.ts";
import {draftFromCompletionsRequest} from "../completions/draftFromCompletionsRequest.ts";
import {draftFromResponsesRequest} from "../responses/draftFromResponsesRequest.ts";
import type {ResponsesReply} from "../responses/types.ts";
import type {RunState} from "../runs/types.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {useCompletionsStore} from "../state/useCompletionsStore.ts";
import {useNavStore} from "../state/useNavStore.ts";
import {useResponsesStore} from "../state/useResponsesStore.ts";
import type {HistoryEntry} from "./types.ts";

/** Puts a stored run back in its playground: the request to edit or re-run, and the reply it got. */
export function openHistoryEntry(entry: HistoryEntry) {
    const run: RunState = {status: entry.status, request: entry.request, connectionName: entry.connectionName, error: entry.error, timing: entry.timing};
    const body = entry.request as JsonBody;
    if (entry.kind === "chat") useChatStore.getState().loadDraft(draftFromChatRequest(body), entry.reply as ChatReply, run);
    if (entry.kind === "responses") useResponsesStore.getState().loadDraft(draftFromResponsesRequest(body), entry.reply as ResponsesReply, run);
    if (entry.kind === "completions") useCompletionsStore.getState().loadDraft(draftFromCompletionsRequest(body), entry.reply as ChatReply, run);
    useNavStore.getState().go(entry.kind);
}
