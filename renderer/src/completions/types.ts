import type {ParamValues} from "../params/types.ts";

export type CompletionsDraft = {prompt: string, params: ParamValues};
