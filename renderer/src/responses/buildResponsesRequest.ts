import type {JsonBody} from "../../../client/sdk/index.ts";
import {modelIds} from "../../../protocol/limits.ts";
import {applyParams} from "../params/applyParams.ts";
import {responsesParamSpecs} from "../params/responsesParamSpecs.ts";
import type {ResponsesDraft} from "./types.ts";

/**
 * The `POST /v1/responses` body (spec 2.4): one user message of `input_text` / `input_image` parts
 * (`detail` is required on every image), or a plain string input when there is only text.
 */
export function buildResponsesRequest(draft: ResponsesDraft): JsonBody {
    const body: JsonBody = {model: modelIds.chat};
    if (draft.instructions.trim()) body.instructions = draft.instructions;
    const onlyText = draft.parts.every((part) => part.type === "input_text");
    body.input = onlyText && draft.parts.length <= 1
        ? (draft.parts[0]?.type === "input_text" ? draft.parts[0].text : "")
        : [{
            role: "user",
            content: draft.parts.map((part) => part.type === "input_text"
                ? {type: "input_text", text: part.text}
                : {type: "input_image", image_url: part.dataUrl, detail: "auto"})
        }];
    return applyParams(responsesParamSpecs, draft.params, body);
}
