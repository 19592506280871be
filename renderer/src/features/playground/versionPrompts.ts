// Between versions and the screens that make and open them: a version of what the chat or Responses playground would
// send now (its request less the model and stream), of the Decision studio's question set with how a row goes in, and
// a version opened again in its playground or in the studio.
import type {ChatPrompt, DecisionPrompt, PromptVersion, PromptVersionBody} from "../../../../client/experiments/types.ts";
import {parseQuestionSet, type InputMapping, type QuestionSet} from "../../../../client/scoring/index.ts";
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {useNavStore} from "../../ui/appState.ts";
import {buildChatRequest, draftFromChatRequest, type ChatDraft} from "../playground/chat.ts";
import {buildResponsesRequest, draftFromResponsesRequest, type ResponsesDraft} from "../playground/responses.ts";
import {useChatStore, useResponsesStore} from "../playground/stores.ts";
import {draftFromQuestionSet} from "../questionSet/draftFromQuestionSet.ts";
import {documentProblem, useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {requestReplacement} from "../decisions/setReplacement.ts";
import {useDecisionInputStore} from "../decisions/studioState.ts";
import {useScoringStore} from "../scoring/scoringStore.ts";
import type {PromptKind} from "./versionStore.ts";

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

/**
 * How a dataset row goes in for a question-set version: the Decision studio's table mapping when its input is a table
 * row, else the row's model-visible columns as JSON.
 */
function studioInputMapping(): InputMapping {
    return useDecisionInputStore.getState().mode === "row" ? useScoringStore.getState().mapping : {kind: "row"};
}

/** The studio's question set as a version's prompt; refused while the set has a problem the server would refuse. */
export function decisionPromptOfStudio(): DecisionPrompt | {error: string} {
    const document = useQuestionSetStore.getState();
    const problem = documentProblem(document);
    if (problem !== null) return {error: `Fix the question set first: ${problem}`};
    let questionSet: QuestionSet;
    try {
        questionSet = parseQuestionSet(JSON.parse(document.jsonText)).questionSet;
    } catch (error) {
        return {error: `Fix the question set first: ${(error as Error).message}`};
    }
    return {kind: "decision", questionSet, input: studioInputMapping()};
}

/** The prompt of what is open now on the screen of `kind`. */
export function currentPrompt(kind: PromptKind): PromptVersionBody | {error: string} {
    return kind === "decision" ? decisionPromptOfStudio() : chatPromptOfPlayground(kind);
}

/** A suggested item name for a new item: the question set's name in the studio, else none. */
export function suggestedName(kind: PromptKind): string {
    return kind === "decision" ? useQuestionSetStore.getState().draft.name : "";
}

export type Opened = {ok: boolean, text: string, undo?: () => void};

/**
 * Opens a version where it was made: a chat or Responses version replaces that playground's draft (the message
 * offers Undo); a question set goes to the Decision studio, which asks first when its set holds unsaved edits.
 */
export function openVersion(version: PromptVersion): Opened {
    const label = `version ${version.version} of "${version.itemName}"`;
    const prompt = version.prompt;
    if (prompt.kind === "decision") {
        requestReplacement({what: label, draft: {...draftFromQuestionSet(prompt.questionSet), name: version.itemName}, saved: false, done: `Opened ${label}.`});
        useNavStore.getState().go("decisions");
        return {ok: true, text: `Opened ${label} in the Decision studio.`};
    }
    if (prompt.endpoint === "chat") {
        const store = useChatStore.getState();
        const previous: ChatDraft = store.draft;
        store.loadDraft(draftFromChatRequest(prompt.body));
        useNavStore.getState().go("chat");
        return {ok: true, text: `Opened ${label} in the Chat playground.`, undo: () => useChatStore.getState().loadDraft(previous)};
    }
    const store = useResponsesStore.getState();
    const previous: ResponsesDraft = store.draft;
    store.loadDraft(draftFromResponsesRequest(prompt.body));
    useNavStore.getState().go("responses");
    return {ok: true, text: `Opened ${label} in the Responses playground.`, undo: () => useResponsesStore.getState().loadDraft(previous)};
}
