// The playgrounds' stores (drafts, replies, runs; saved presets) and the actions that run each playground.
import {create} from "zustand";
import {createJSONStorage, persist} from "zustand/middleware";
import type {ChatCompletionBody, JsonBody, ResponsesBody, CompletionBody} from "../../../../client/sdk/index.ts";
import {appDataStorage} from "../../gateway/appData.ts";
import {newId} from "../../ui/browser.ts";
import type {DraftImage} from "../../ui/images.tsx";
import {defaultSchemaText, emptyReply, type ChatReply, type ChatDraft, type DraftMessage, type DraftRole, type ResponseFormatSetting, type ToolCall, type ToolChoiceSetting, applyChatChunk, buildChatRequest, replyFromCompletion} from "./chat.ts";
import {type CompletionsDraft, applyCompletionChunk, buildCompletionsRequest, buildScoreRequest} from "./completions.ts";
import {defaultChatParams, type ParamValue, type ParamValues, defaultResponsesParams, defaultCompletionsParams} from "./params.ts";
import {emptyResponsesReply, type ResponsesDraft, type ResponsesReply, applyResponsesEvent, outputTextOf, reasoningTextOf, buildResponsesRequest, type ResponsesStreamEvent} from "./responses.ts";
import {idleRun, reloadStopNote, type RunState, executeRun} from "./runs.ts";
import {setLogitBiasEntry} from "./probabilities.ts";
import {readChatDraft, readCompletionsDraft, readResponsesDraft} from "./savedDrafts.ts";
import type {AddLogitBias} from "./TokenProbabilities.tsx";

type ChatState = {
    draft: ChatDraft,
    reply: ChatReply,
    run: RunState,
    setSystemPrompt: (text: string) => void,
    addMessage: (role?: DraftRole) => void,
    updateMessage: (id: string, patch: Partial<Omit<DraftMessage, "id">>) => void,
    removeMessage: (id: string) => void,
    moveMessage: (id: string, by: -1 | 1) => void,
    addImages: (id: string, images: DraftImage[]) => void,
    removeImage: (id: string, imageId: string) => void,
    setParam: (key: string, value: ParamValue) => void,
    setParams: (params: ParamValues) => void,
    setToolsText: (text: string) => void,
    setToolChoice: (choice: ToolChoiceSetting) => void,
    setResponseFormat: (format: ResponseFormatSetting) => void,
    /** Appends a reply choice as an assistant message (with its tool calls, if any). */
    keepReply: (content: string, toolCalls: ToolCall[]) => void,
    /** Answers one tool call: the assistant message with the calls (once) and a `tool` message. */
    answerToolCall: (toolCalls: ToolCall[], callId: string, result: string) => void,
    loadDraft: (draft: ChatDraft, reply?: ChatReply, run?: RunState) => void,
    setRun: (patch: {reply?: ChatReply, run?: RunState}) => void
};

export const initialChatDraft = (): ChatDraft => ({
    systemPrompt: "You are a helpful assistant.",
    messages: [{id: newId(), role: "user", content: "Write a one-line story about a robot.", images: []}],
    params: {...defaultChatParams},
    toolsText: "",
    toolChoice: "",
    responseFormat: {mode: "none", schemaText: defaultSchemaText}
});

const editMessages = (state: ChatState, change: (messages: DraftMessage[]) => DraftMessage[]) => ({draft: {...state.draft, messages: change(state.draft.messages)}});

/**
 * What a playground keeps in the app's data folder (gateway/appData.ts), so a reload or a restart finds it as it was:
 * its draft (everything its request is built from), and its last reply with the run it belongs to, as the Decision
 * studio keeps its answers. A run cut short by the reload is kept as stopped. A saved reply that does not have its
 * reply's shape (`isReply`) is dropped, never shown half: the draft still loads.
 */
function savedDraft<S extends {draft: D, reply: R, run: RunState}, D, R>(name: string, read: (saved: unknown, fallback: D) => D, isReply: (saved: unknown) => saved is R) {
    return {
        name,
        version: 1,
        storage: createJSONStorage<{draft: D, reply?: R, run?: RunState}>(() => appDataStorage),
        partialize: (state: S) => ({draft: state.draft, reply: state.reply, run: keptRun(state.run)}),
        merge: (saved: unknown, current: S): S => {
            const kept = saved as {draft?: unknown, reply?: unknown, run?: unknown} | null;
            const draft = read(kept?.draft, current.draft);
            const run = kept?.run as RunState | undefined;
            const runFits = run !== undefined && typeof run === "object" && run !== null && typeof run.status === "string" && typeof run.timing === "object" && run.timing !== null;
            const reply = kept?.reply;
            return runFits && isReply(reply) ? {...current, draft, reply, run} : {...current, draft};
        }
    };
}

/** A run as it is kept: one still running when the page goes away is kept as stopped, with what it had received. */
function keptRun(run: RunState): RunState {
    return run.status === "running" ? {...run, status: "stopped", note: reloadStopNote} : run;
}

const isChatReply = (saved: unknown): saved is ChatReply =>
    typeof saved === "object" && saved !== null && Array.isArray((saved as ChatReply).choices) && typeof (saved as ChatReply).chunks === "number";

const isResponsesReply = (saved: unknown): saved is ResponsesReply =>
    typeof saved === "object" && saved !== null && Array.isArray((saved as ResponsesReply).events) && typeof (saved as ResponsesReply).outputText === "string";

export const useChatStore = create<ChatState>()(persist((set) => ({
    draft: initialChatDraft(),
    reply: emptyReply(),
    run: idleRun(),
    setSystemPrompt: (systemPrompt) => set((state) => ({draft: {...state.draft, systemPrompt}})),
    addMessage: (role) => set((state) => editMessages(state, (messages) => {
        const last = messages[messages.length - 1];
        const next: DraftRole = role ?? (last?.role === "user" ? "assistant" : "user");
        return [...messages, {id: newId(), role: next, content: "", images: []}];
    })),
    updateMessage: (id, patch) => set((state) => editMessages(state, (messages) => messages.map((message) => message.id === id ? {...message, ...patch} : message))),
    removeMessage: (id) => set((state) => editMessages(state, (messages) => messages.filter((message) => message.id !== id))),
    moveMessage: (id, by) => set((state) => editMessages(state, (messages) => {
        const from = messages.findIndex((message) => message.id === id);
        const to = from + by;
        if (from < 0 || to < 0 || to >= messages.length) return messages;
        const next = messages.slice();
        [next[from], next[to]] = [next[to], next[from]];
        return next;
    })),
    addImages: (id, images) => set((state) => editMessages(state, (messages) => messages.map((message) =>
        message.id === id ? {...message, images: [...message.images, ...images]} : message))),
    removeImage: (id, imageId) => set((state) => editMessages(state, (messages) => messages.map((message) =>
        message.id === id ? {...message, images: message.images.filter((image) => image.id !== imageId)} : message))),
    setParam: (key, value) => set((state) => ({draft: {...state.draft, params: {...state.draft.params, [key]: value}}})),
    setParams: (params) => set((state) => ({draft: {...state.draft, params: {...params}}})),
    setToolsText: (toolsText) => set((state) => ({draft: {...state.draft, toolsText}})),
    setToolChoice: (toolChoice) => set((state) => ({draft: {...state.draft, toolChoice}})),
    setResponseFormat: (responseFormat) => set((state) => ({draft: {...state.draft, responseFormat}})),
    keepReply: (content, toolCalls) => set((state) => editMessages(state, (messages) => [
        ...messages,
        {id: newId(), role: "assistant", content, images: [], ...(toolCalls.length > 0 ? {toolCalls} : {})}
    ])),
    answerToolCall: (toolCalls, callId, result) => set((state) => editMessages(state, (messages) => {
        const hasCalls = messages.some((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === callId));
        const withCalls: DraftMessage[] = hasCalls ? messages : [...messages, {id: newId(), role: "assistant", content: "", images: [], toolCalls}];
        return [...withCalls, {id: newId(), role: "tool", content: result, images: [], toolCallId: callId}];
    })),
    loadDraft: (draft, reply, run) => set({draft, reply: reply ?? emptyReply(), run: run ?? idleRun()}),
    setRun: (patch) => set(patch)
}), savedDraft<ChatState, ChatDraft, ChatReply>("svc-studio-chat", readChatDraft, isChatReply)));

type ResponsesState = {
    draft: ResponsesDraft,
    reply: ResponsesReply,
    run: RunState,
    setInstructions: (text: string) => void,
    addTextPart: () => void,
    addImageParts: (images: DraftImage[]) => void,
    setPartText: (id: string, text: string) => void,
    removePart: (id: string) => void,
    setParam: (key: string, value: ParamValue) => void,
    setParams: (params: ParamValues) => void,
    loadDraft: (draft: ResponsesDraft, reply?: ResponsesReply, run?: RunState) => void,
    setRun: (patch: {reply?: ResponsesReply, run?: RunState}) => void
};

const editParts = (state: ResponsesState, change: (parts: ResponsesDraft["parts"]) => ResponsesDraft["parts"]) => ({draft: {...state.draft, parts: change(state.draft.parts)}});

export const useResponsesStore = create<ResponsesState>()(persist((set) => ({
    draft: {
        instructions: "Answer in one sentence.",
        parts: [{id: newId(), type: "input_text", text: "Tell me a story about a cat."}],
        params: {...defaultResponsesParams}
    },
    reply: emptyResponsesReply(),
    run: idleRun(),
    setInstructions: (instructions) => set((state) => ({draft: {...state.draft, instructions}})),
    addTextPart: () => set((state) => editParts(state, (parts) => [...parts, {id: newId(), type: "input_text", text: ""}])),
    addImageParts: (images) => set((state) => editParts(state, (parts) => [...parts, ...images.map((image) => ({...image, type: "input_image" as const}))])),
    setPartText: (id, text) => set((state) => editParts(state, (parts) => parts.map((part) => part.id === id && part.type === "input_text" ? {...part, text} : part))),
    removePart: (id) => set((state) => editParts(state, (parts) => parts.filter((part) => part.id !== id))),
    setParam: (key, value) => set((state) => ({draft: {...state.draft, params: {...state.draft.params, [key]: value}}})),
    setParams: (params) => set((state) => ({draft: {...state.draft, params: {...params}}})),
    loadDraft: (draft, reply, run) => set({draft, reply: reply ?? emptyResponsesReply(), run: run ?? idleRun()}),
    setRun: (patch) => set(patch)
}), savedDraft<ResponsesState, ResponsesDraft, ResponsesReply>("svc-studio-responses", readResponsesDraft, isResponsesReply)));

type CompletionsState = {
    draft: CompletionsDraft,
    reply: ChatReply,
    run: RunState,
    setPrompt: (prompt: string) => void,
    setParam: (key: string, value: ParamValue) => void,
    setParams: (params: ParamValues) => void,
    loadDraft: (draft: CompletionsDraft, reply?: ChatReply, run?: RunState) => void,
    setRun: (patch: {reply?: ChatReply, run?: RunState}) => void
};

export const useCompletionsStore = create<CompletionsState>()(persist((set) => ({
    draft: {prompt: "Once upon a time", params: {...defaultCompletionsParams}},
    reply: emptyReply(),
    run: idleRun(),
    setPrompt: (prompt) => set((state) => ({draft: {...state.draft, prompt}})),
    setParam: (key, value) => set((state) => ({draft: {...state.draft, params: {...state.draft.params, [key]: value}}})),
    setParams: (params) => set((state) => ({draft: {...state.draft, params: {...params}}})),
    loadDraft: (draft, reply, run) => set({draft, reply: reply ?? emptyReply(), run: run ?? idleRun()}),
    setRun: (patch) => set(patch)
}), savedDraft<CompletionsState, CompletionsDraft, ChatReply>("svc-studio-completions", readCompletionsDraft, isChatReply)));

type ParamsStore = {getState: () => {draft: {params: ParamValues}, setParam: (key: string, value: ParamValue) => void}};

/**
 * The probabilities view's one-click logit_bias entry for a playground: writes `id: bias` into the logit_bias editor
 * of its parameters panel, where the user sees it before the next run.
 */
export function logitBiasAdder(store: ParamsStore): AddLogitBias {
    return (id, bias) => {
        const {draft, setParam} = store.getState();
        const current = draft.params.logit_bias;
        setParam("logit_bias", setLogitBiasEntry(typeof current === "string" ? current : undefined, id, bias));
    };
}

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

export async function runCompletions(): Promise<void> {
    await executeCompletions(buildCompletionsRequest(useCompletionsStore.getState().draft));
}

/** "Score this text": the prompt's own tokens scored by the model (echo with max_tokens 0), nothing generated. */
export async function scoreCompletionsPrompt(): Promise<void> {
    await executeCompletions(buildScoreRequest(useCompletionsStore.getState().draft));
}

async function executeCompletions(body: JsonBody): Promise<void> {
    await executeRun({
        kind: "completions",
        body,
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
