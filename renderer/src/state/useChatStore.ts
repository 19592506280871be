import {create} from "zustand";
import {defaultSchemaText} from "../chat/draftFromChatRequest.ts";
import {emptyReply, type ChatReply} from "../chat/replyTypes.ts";
import type {ChatDraft, DraftImage, DraftMessage, DraftRole, ResponseFormatSetting, ToolCall, ToolChoiceSetting} from "../chat/types.ts";
import {defaultChatParams} from "../params/chatParamSpecs.ts";
import type {ParamValue, ParamValues} from "../params/types.ts";
import {idleRun, type RunState} from "../runs/types.ts";
import {newId} from "../utils/newId.ts";

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

export const useChatStore = create<ChatState>()((set) => ({
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
}));
