import type {JsonBody} from "../../../client/sdk/index.ts";
import {readParams} from "../params/readParams.ts";
import {responsesParamSpecs} from "../params/responsesParamSpecs.ts";
import {newId} from "../utils/newId.ts";
import type {ResponsesDraft, ResponsesPart} from "./types.ts";

/** Rebuilds the Responses draft from a stored request body (the user parts of its input, in order). */
export function draftFromResponsesRequest(body: JsonBody): ResponsesDraft {
    const parts: ResponsesPart[] = [];
    if (typeof body.input === "string") parts.push({id: newId(), type: "input_text", text: body.input});
    else if (Array.isArray(body.input)) {
        for (const message of body.input as JsonBody[]) {
            if (typeof message.content === "string") parts.push({id: newId(), type: "input_text", text: message.content});
            else if (Array.isArray(message.content)) for (const part of message.content as JsonBody[]) {
                if (part.type === "input_text") parts.push({id: newId(), type: "input_text", text: String(part.text ?? "")});
                if (part.type === "input_image") parts.push({id: newId(), type: "input_image", name: `image ${parts.length + 1}`, dataUrl: String(part.image_url ?? "")});
            }
        }
    }
    return {instructions: typeof body.instructions === "string" ? body.instructions : "", parts, params: readParams(responsesParamSpecs, body)};
}
