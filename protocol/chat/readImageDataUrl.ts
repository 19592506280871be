import {decodeBase64} from "../decisions/images/decodeBase64.ts";
import {readImageSize, type ImageSize} from "../decisions/images/readImageSize.ts";
import {fail} from "../validation/read.ts";
import type {FieldPath} from "../validation/ValidationError.ts";
import {readDataUrl} from "./readDataUrl.ts";

export type InlineImage = ImageSize & {bytes: Uint8Array};

/**
 * An image part's URL (spec 2.1, 2.4): an inline `data:image/...;base64,` URL whose bytes decode to a PNG, JPEG,
 * GIF or WebP image, so a part that only claims to be an image is refused before it reaches any model.
 */
export function readImageDataUrl(value: unknown, path: FieldPath): InlineImage {
    const {mediaType, base64} = readDataUrl(value, path);
    if (!mediaType.startsWith("image/")) fail(path, `must hold an image, but its data URL declares ${mediaType}`);
    const bytes = decodeBase64(base64.replace(/\s+/g, ""));
    if (bytes == null) fail(path, "holds invalid base64 data");
    const image = readImageSize(bytes);
    if (image == null) fail(path, "does not hold a readable image (PNG, JPEG, GIF or WebP expected)");
    return {...image, bytes};
}
