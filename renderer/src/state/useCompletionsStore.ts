import {create} from "zustand";
import {emptyReply, type ChatReply} from "../chat/replyTypes.ts";
import type {CompletionsDraft} from "../completions/types.ts";
import {defaultCompletionsParams} from "../params/completionsParamSpecs.ts";
import type {ParamValue, ParamValues} from "../params/types.ts";
import {idleRun, type RunState} from "../runs/types.ts";

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

export const useCompletionsStore = create<CompletionsState>()((set) => ({
    draft: {prompt: "Once upon a time", params: {...defaultCompletionsParams}},
    reply: emptyReply(),
    run: idleRun(),
    setPrompt: (prompt) => set((state) => ({draft: {...state.draft, prompt}})),
    setParam: (key, value) => set((state) => ({draft: {...state.draft, params: {...state.draft.params, [key]: value}}})),
    setParams: (params) => set((state) => ({draft: {...state.draft, params: {...params}}})),
    loadDraft: (draft, reply, run) => set({draft, reply: reply ?? emptyReply(), run: run ?? idleRun()}),
    setRun: (patch) => set(patch)
}));
