import {ApiError} from "../../protocol/errors/ApiError.ts";
import type {ChatMessage} from "../../protocol/chat/types.ts";

/**
 * node-llama-cpp cannot read images yet, so a request with image parts (already checked to be inline images by
 * the parsers) is refused with a clear 400 rather than answered as if the image were not there. This is the
 * seam where a vision backend would plug in: it would take these parts, in order, instead of refusing them.
 */
export function refuseImageParts(messages: ChatMessage[]) {
    const images = messages.reduce((count, message) =>
        count + (Array.isArray(message.content) ? message.content.filter((part) => part.type === "image_url").length : 0), 0);
    if (images > 0)
        throw new ApiError(400, "invalid_request",
            `the request holds ${images === 1 ? "an image" : `${images} images`}, but the loaded model cannot read images; send text only`);
}
