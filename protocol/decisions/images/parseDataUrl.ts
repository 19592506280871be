// Decision images arrive only as base64 data URLs (spec 2.9: external image URLs and file IDs are unsupported):
// `data:image/<subtype>[;param=value]*;base64,<data>`.

export type DataUrl = {
    /** Lower-cased media type as the URL declares it, e.g. `image/png`. */
    mediaType: string,
    /** The base64 text after the comma (not decoded here). */
    base64: string
};

/** Returns the parts of a base64 image data URL, or a reason why the text is not one. */
export function parseDataUrl(text: string): DataUrl | {problem: string} {
    if (!/^data:/i.test(text)) return {problem: "must be a base64 data URL (data:image/...;base64,...); external URLs are not supported"};
    const comma = text.indexOf(",");
    if (comma < 0) return {problem: "is not a data URL: no comma before the data"};
    const header = text.slice("data:".length, comma).split(";").map((part) => part.trim());
    const mediaType = header[0].toLowerCase();
    if (header[header.length - 1].toLowerCase() !== "base64") return {problem: "must be base64 encoded (data:image/...;base64,...)"};
    if (!/^image\/[a-z0-9.+-]+$/.test(mediaType)) return {problem: `must hold an image media type, got ${JSON.stringify(mediaType || "none")}`};
    return {mediaType, base64: text.slice(comma + 1)};
}
