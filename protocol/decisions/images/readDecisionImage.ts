import {limits} from "../../limits.ts";
import {ValidationError, type FieldPath} from "../../validation/ValidationError.ts";
import {fail, readString} from "../../validation/read.ts";
import type {NormalizedImage} from "../types.ts";
import {decodeBase64} from "./decodeBase64.ts";
import {parseDataUrl} from "./parseDataUrl.ts";
import {readImageSize} from "./readImageSize.ts";

/**
 * Reads one decision image (a base64 data URL) at `path`: decodes it, checks that the bytes are a PNG, JPEG,
 * GIF or WebP image and that it holds at most 25,000,000 pixels. A malformed field is `invalid_request`;
 * well-formed bytes that are no readable image are `request_rejected` (spec 7, 400 cause 6).
 */
export function readDecisionImage(value: unknown, path: FieldPath, name: string): NormalizedImage {
    const dataUrl = parseDataUrl(readString(value, path));
    if ("problem" in dataUrl) fail(path, dataUrl.problem);
    const bytes = decodeBase64(dataUrl.base64);
    if (!bytes) fail(path, "holds invalid base64 data");
    const size = readImageSize(bytes);
    if (!size) throw new ValidationError(path, "cannot be read as an image (PNG, JPEG, GIF or WebP expected)", {code: "request_rejected"});
    const pixels = size.width * size.height;
    if (pixels > limits.pixelsPerImage)
        fail(path, `is ${size.width}x${size.height} = ${pixels.toLocaleString("en-US")} pixels; an image may hold at most ${limits.pixelsPerImage.toLocaleString("en-US")} pixels`);
    return {name, mediaType: size.mediaType, format: size.format, bytes, width: size.width, height: size.height};
}
