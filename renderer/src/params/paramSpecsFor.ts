import type {HistoryKind} from "../history/types.ts";
import {chatParamSpecs} from "./chatParamSpecs.ts";
import {completionsParamSpecs} from "./completionsParamSpecs.ts";
import {responsesParamSpecs} from "./responsesParamSpecs.ts";
import type {ParamSpec} from "./types.ts";

export const paramSpecsFor: Record<HistoryKind, ParamSpec[]> = {
    chat: chatParamSpecs,
    responses: responsesParamSpecs,
    completions: completionsParamSpecs
};
