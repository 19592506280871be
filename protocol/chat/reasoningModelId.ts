/**
 * Id of the variant of `svc-1` that reasons by default (spec 1 and 9.2 leave the hosted id unshown). The local
 * engine serves it beside `svc-1` when the loaded model's chat template can think.
 */
export const reasoningModelId = "svc-1-reasoning";
