import {create} from "zustand";
import type {DraftImage} from "../chat/types.ts";
import {defaultResponsesParams} from "../params/responsesParamSpecs.ts";
import type {ParamValue, ParamValues} from "../params/types.ts";
import {emptyResponsesReply, type ResponsesDraft, type ResponsesReply} from "../responses/types.ts";
import {idleRun, type RunState} from "../runs/types.ts";
import {newId} from "../utils/newId.ts";

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

export const useResponsesStore = create<ResponsesState>()((set) => ({
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
}));
