// What the chat and Responses playgrounds give versions: what they would send now as a version's prompt (their request
// less the model and stream), and a version opened again in their draft, with Undo.
import type {ChatPrompt, PromptVersion} from "../../../../client/experiments/types.ts";
import type {JsonBody} from "../../../../client/sdk/index.ts";
import type {Opened} from "../versions/SaveVersionPanel.tsx";
import {buildChatRequest, draftFromChatRequest} from "./chat.ts";
import {buildResponsesRequest, draftFromResponsesRequest} from "./responses.ts";
import {useChatStore, useResponsesStore} from "./stores.ts";

/** Fields a version leaves to the variant that runs it: the model, and whether it streams. */
const withoutRunFields = ({model: _model, stream: _stream, stream_options: _options, ...rest}: JsonBody): JsonBody => rest;

/** What the chat or Responses playground would send now, as a version's prompt; refused while a JSON field does not read. */
export function chatPromptOfPlayground(endpoint: "chat" | "responses"): ChatPrompt | {error: string} {
    if (endpoint === "responses") return {kind: "chat", endpoint, body: withoutRunFields(buildResponsesRequest(useResponsesStore.getState().draft))};
    const {body, errors: {stream: _stream, ...errors}} = buildChatRequest(useChatStore.getState().draft);
    const problems = Object.values(errors);
    if (problems.length > 0) return {error: `Fix the request first: ${problems.join("; ")}`};
    return {kind: "chat", endpoint, body: withoutRunFields(body)};
}

export const chatPrompt = () => chatPromptOfPlayground("chat");
export const responsesPrompt = () => chatPromptOfPlayground("responses");

const label = (version: PromptVersion) => `version ${version.version} of "${version.itemName}"`;

/** Loads a chat version into the chat playground's draft; Undo puts the draft from before back. */
export function openChatVersion(version: PromptVersion): Opened {
    if (version.prompt.kind !== "chat") return {ok: false, text: `${label(version)} is not a chat prompt.`};
    const previous = useChatStore.getState().draft;
    useChatStore.getState().loadDraft(draftFromChatRequest(version.prompt.body));
    return {ok: true, text: `Opened ${label(version)} in the Chat playground.`, undo: () => useChatStore.getState().loadDraft(previous)};
}

/** Loads a Responses version into the Responses playground's draft; Undo puts the draft from before back. */
export function openResponsesVersion(version: PromptVersion): Opened {
    if (version.prompt.kind !== "chat") return {ok: false, text: `${label(version)} is not a Responses prompt.`};
    const previous = useResponsesStore.getState().draft;
    useResponsesStore.getState().loadDraft(draftFromResponsesRequest(version.prompt.body));
    return {ok: true, text: `Opened ${label(version)} in the Responses playground.`, undo: () => useResponsesStore.getState().loadDraft(previous)};
}
