import {fail, readString} from "../validation/read.ts";
import type {FieldPath} from "../validation/ValidationError.ts";

export type DataUrl = {mediaType: string, base64: string};

const dataUrlPattern = /^data:([a-zA-Z0-9.+-]+\/[a-zA-Z0-9.+-]+)(?:;[a-zA-Z0-9-]+=[^;,]*)*;base64,([A-Za-z0-9+/\s]*={0,2})$/;

/** Images travel only as inline data URLs (spec 2.1): any other URL is refused before anything is fetched. */
export function readDataUrl(value: unknown, path: FieldPath): DataUrl {
    const url = readString(value, path);
    const match = dataUrlPattern.exec(url);
    if (match == null) {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
        fail(path, `only inline data URLs (data:<media-type>;base64,<data>) are accepted${scheme != null && scheme.toLowerCase() !== "data" ? `, not ${scheme} URLs` : ""}`);
    }
    return {mediaType: match[1].toLowerCase(), base64: match[2]};
}
