import path from "node:path";
import {DownloadError} from "./downloadModel.ts";

export type ModelSource = {
    /** What the user gave (`hf:...` or a URL). */
    source: string,
    /** The http(s) URL to fetch. */
    url: string,
    /** The library file name it is saved as. */
    fileName: string
};

/**
 * `hf:<user>/<repo>/<file>` (the file may sit in a folder of the repo) -> `https://huggingface.co/<user>/<repo>/resolve/main/<file>`;
 * an http(s) URL is taken as is. The file name comes from the URL's last segment unless `fileName` is given.
 */
export function parseModelSource(source: string, fileName?: string): ModelSource {
    const text = source.trim();
    let url: URL;
    if (/^hf:/i.test(text)) {
        const parts = text.slice(3).replace(/^\/+/, "").split("/");
        if (parts.length < 3 || parts.some((part) => part === "" || part === "." || part === ".."))
            throw new DownloadError("bad_url", `a Hugging Face source is hf:<user>/<repo>/<file.gguf>, got ${JSON.stringify(source)}`);
        const [user, repo, ...file] = parts;
        url = new URL(`https://huggingface.co/${[user, repo].map(encodeURIComponent).join("/")}/resolve/main/${file.map(encodeURIComponent).join("/")}`);
    } else {
        try {
            url = new URL(text);
        } catch {
            throw new DownloadError("bad_url", `not a URL or hf: source: ${JSON.stringify(source)} (expected https://... or hf:<user>/<repo>/<file.gguf>)`);
        }
        if (url.protocol !== "https:" && url.protocol !== "http:")
            throw new DownloadError("bad_url", `only http(s) URLs can be downloaded, got ${url.protocol} in ${JSON.stringify(source)}`);
        if (url.username !== "" || url.password !== "")
            throw new DownloadError("bad_url", "a URL with a user name or password cannot be downloaded (credentials would be stored with it)");
    }
    return {source: text, url: url.href, fileName: checkFileName(fileName ?? lastSegment(url))};
}

function lastSegment(url: URL): string {
    const segment = url.pathname.split("/").filter((part) => part !== "").pop();
    let name = "";
    try {
        name = decodeURIComponent(segment ?? "");
    } catch {
        name = segment ?? "";
    }
    if (name === "") throw new DownloadError("bad_url", `the URL names no file to save (pass a file name): ${url.href}`);
    return name.toLowerCase().endsWith(".gguf") ? name : `${name}.gguf`;
}

/** A plain file name in the library: no folders, nothing hidden, ending in `.gguf`. */
function checkFileName(name: string): string {
    const hasControlCharacter = [...name].some((character) => character.charCodeAt(0) < 0x20);
    if (name !== path.basename(name) || /[\\/:*?"<>|]/.test(name) || hasControlCharacter || name.startsWith(".") || !name.toLowerCase().endsWith(".gguf"))
        throw new DownloadError("bad_url", `not a usable model file name: ${JSON.stringify(name)} (a plain name ending in .gguf)`);
    return name;
}
