import {optional, readBoolean, readInteger, readObject, rejectUnknownFields, type JsonObject} from "../../validation/read.ts";

export type DecisionExtensions = {explain: boolean, maxSoftTokens?: number, images?: JsonObject};

/** Reads `x_svc` (spec 2.10); `images` is a known field only where `allowImages` (i.e. /v1/systemone). */
export function readDecisionExtensions(body: JsonObject, allowImages: boolean): DecisionExtensions {
    const extensions = optional(body, "x_svc", [], readObject);
    if (!extensions) return {explain: false};
    rejectUnknownFields(extensions, ["x_svc"], allowImages ? ["explain", "images", "max_soft_tokens"] : ["explain", "max_soft_tokens"]);
    return {
        explain: optional(extensions, "explain", ["x_svc"], readBoolean) ?? false,
        maxSoftTokens: optional(extensions, "max_soft_tokens", ["x_svc"], (value, path) => readInteger(value, path, {min: 1})),
        images: allowImages ? optional(extensions, "images", ["x_svc"], readObject) : undefined
    };
}
