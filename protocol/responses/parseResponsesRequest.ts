import {readReasoningControls} from "../chat/readReasoningControls.ts";
import {fail, optional, readBoolean, readObject, readString, required, type JsonObject} from "../validation/read.ts";
import {readOutputBudget} from "../validation/readOutputBudget.ts";
import {readSampling} from "../validation/readSampling.ts";
import {readResponsesInput} from "./readResponsesInput.ts";
import type {ResponsesRequest} from "./types.ts";

/** Validates a `POST /v1/responses` body against spec 2.4; throws ValidationError with the field's path. */
export function parseResponsesRequest(raw: unknown): ResponsesRequest {
    const body = readObject(raw, []);
    const model = required(body, "model", [], readString);
    const instructions = optional(body, "instructions", [], readString);
    const input = required(body, "input", [], readResponsesInput);
    const budget = readOutputBudget(body, ["max_output_tokens"]);
    refuseUnsupportedFields(body);
    const {temperature, top_p, seed} = readSampling(body, {withStop: false, withPenalties: false});
    return {
        model,
        // "System-level guidance applied ahead of input" (spec 2.4): the first message of the conversation.
        messages: instructions != null ? [{role: "system", content: instructions}, ...input] : input,
        instructions,
        maxOutputTokens: budget?.value,
        temperature,
        top_p,
        seed,
        ...readReasoningControls(body),
        stream: optional(body, "stream", [], readBoolean) ?? false
    };
}

/**
 * Fields of the wider Responses format that this API does not have: refused with a pointer to what does the job,
 * rather than silently ignored so a client never believes a JSON contract or a stored conversation applied.
 */
function refuseUnsupportedFields(body: JsonObject) {
    if (body.previous_response_id != null)
        fail(["previous_response_id"], "is not supported: requests are self-contained, so send the full input on every call");
    const format = body.text != null ? optional(readObject(body.text, ["text"]), "format", ["text"], readObject) : undefined;
    if (format != null && format.type !== "text")
        fail(["text", "format"], "is not supported: the Responses API has no JSON mode; use response_format on /chat/completions");
    if (body.response_format != null)
        fail(["response_format"], "is not supported: the Responses API has no JSON mode; use it on /chat/completions");
    if (Array.isArray(body.tools) && body.tools.length > 0)
        fail(["tools"], "are not supported on /v1/responses; use tools on /chat/completions");
}
