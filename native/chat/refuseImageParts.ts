import {ApiError} from "../../protocol/errors/ApiError.ts";
import type {ChatMessage} from "../../protocol/chat/types.ts";

/**
 * node-llama-cpp cannot read images yet, so a request with image parts is refused with a clear 400 rather than
 * answered as if the image were not there. A vision backend would take these parts instead of this refusal.
 */
export function refuseImageParts(messages: ChatMessage[]) {
    const index = messages.findIndex((message) => Array.isArray(message.content) && message.content.some((part) => part.type === "image_url"));
    if (index >= 0)
        throw new ApiError(400, "invalid_request", `messages[${index}] holds an image, but the loaded model cannot read images`);
}
