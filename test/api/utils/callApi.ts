import type {TestServer} from "./startTestServer.ts";

export type ApiReply = {status: number, headers: Headers, text: string, json: any};

export type CallOptions = {
    method?: string,
    /** Path below the server root, e.g. `/svc-1/v1/chat/completions`; a bare `/chat/completions` is put under `/svc-1/v1`. */
    path: string,
    /** An object is sent as JSON; a string or bytes are sent as they are (malformed bodies, size limits). */
    body?: unknown,
    headers?: Record<string, string>,
    /** `Authorization` value; defaults to `Bearer <the server's key>`, `null` sends none. */
    authorization?: string | null,
    signal?: AbortSignal
};

/** A raw HTTP call with fetch, for the rows an SDK would hide: error bodies, headers, malformed input. */
export async function callApi(server: TestServer, {method, path, body, headers = {}, authorization, signal}: CallOptions): Promise<ApiReply> {
    const fullPath = path.startsWith("/svc-") || path.startsWith("/health") ? path : `/svc-1/v1${path}`;
    const sentHeaders: Record<string, string> = {...headers};
    const auth = authorization === undefined ? `Bearer ${server.apiKey}` : authorization;
    if (auth != null) sentHeaders.Authorization = auth;
    let payload: BodyInit | undefined;
    if (body !== undefined) {
        payload = typeof body === "string" ? body : body instanceof Uint8Array ? body as Uint8Array<ArrayBuffer> : JSON.stringify(body);
        sentHeaders["Content-Type"] ??= "application/json";
    }
    const response = await fetch(server.url + fullPath, {method: method ?? (body !== undefined ? "POST" : "GET"), headers: sentHeaders, body: payload, signal});
    const text = await response.text();
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch {
        json = undefined;
    }
    return {status: response.status, headers: response.headers, text, json};
}
