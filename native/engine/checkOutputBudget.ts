import {ApiError} from "../../protocol/errors/ApiError.ts";

/**
 * Spec §7 causes 2, 3 and 7 on the local engine, whose window is the loaded context: an explicit budget larger
 * than the window is `max_output_tokens_exceeded`; a prompt plus budget past the window is `invalid_request`.
 * Nothing is ever truncated silently. Only a budget the client did not choose (the chat default) is fitted to
 * the room the prompt leaves, as a local server with a small context would otherwise refuse every default request.
 */
export function checkOutputBudget({promptTokens, budget, explicit, contextSize, field}: {
    promptTokens: number,
    budget: number,
    explicit: boolean,
    contextSize: number,
    field: string
}): number {
    if (explicit && budget > contextSize)
        throw new ApiError(400, "max_output_tokens_exceeded",
            `${field} is ${budget}, above this model's output limit of ${contextSize} tokens (the loaded context size)`);
    const room = contextSize - promptTokens;
    if (room <= 0)
        throw new ApiError(400, "invalid_request",
            `the prompt is ${promptTokens} tokens, which leaves no room in the ${contextSize}-token context window; shorten it`);
    if (!explicit) return Math.min(budget, room);
    if (promptTokens + budget > contextSize)
        throw new ApiError(400, "invalid_request",
            `the prompt (${promptTokens} tokens) plus ${field} (${budget}) exceeds the ${contextSize}-token context window; ` +
            `lower ${field} to at most ${room} or shorten the prompt`);
    return budget;
}
