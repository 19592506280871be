import {fail, optional, readObject, readString, rejectUnknownFields, required} from "../../../protocol/validation.ts";

export type RemoteProfileInput = {name: string, baseUrl: string, apiKey?: string};

const maxNameLength = 100;
const maxKeyLength = 4096;

/** Checks `POST /gateway/api/connections` `{name, baseUrl, apiKey?}`; the base URL comes back normalised. */
export function readRemoteProfileInput(body: unknown): RemoteProfileInput {
    const object = readObject(body, []);
    rejectUnknownFields(object, [], ["name", "baseUrl", "apiKey"]);
    const name = required(object, "name", [], readString).trim();
    if (name === "" || name.length > maxNameLength) fail(["name"], `must be 1 to ${maxNameLength} characters`);
    const baseUrl = normaliseBaseUrl(required(object, "baseUrl", [], readString), ["baseUrl"]);
    const apiKey = optional(object, "apiKey", [], readString);
    // The key becomes a header value: anything outside visible ASCII would break or split the header.
    if (apiKey != null && (apiKey.length === 0 || apiKey.length > maxKeyLength || !/^[\x21-\x7e]+$/.test(apiKey)))
        fail(["apiKey"], `must be 1 to ${maxKeyLength} visible ASCII characters without spaces`);
    return {name, baseUrl, apiKey};
}

/** An http(s) URL without credentials, query or fragment and without a trailing slash: `<base>/<model>/v1/...` is appended. */
export function normaliseBaseUrl(text: string, path: string[]): string {
    let url: URL;
    try {
        url = new URL(text.trim());
    } catch {
        fail(path, `must be an absolute http:// or https:// URL, got ${JSON.stringify(text)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") fail(path, `must use http:// or https://, got ${url.protocol}`);
    if (url.username !== "" || url.password !== "") fail(path, "must not contain credentials; send the key as apiKey");
    if (url.search !== "" || url.hash !== "") fail(path, "must not contain a query or fragment");
    return url.origin + url.pathname.replace(/\/+$/, "");
}
