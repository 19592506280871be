import {readApiError} from "../../../client/sdk/index.ts";
import {gatewayHeaders} from "./gatewayHeaders.ts";

/**
 * Calls one of the gateway's own routes (`/gateway/api/...`) on this page's origin with the launch
 * token. These routes are not part of the svc API, so SvcClient has no method for them; a non-2xx is
 * read with the client's readApiError, so it shows like any API error.
 */
export async function gatewayFetch<T>(path: string, init: {method?: "GET" | "POST" | "DELETE", body?: unknown} = {}): Promise<T> {
    return fetchThroughGateway(`/gateway/api${path}`, init);
}

/** A JSON call to any path of this page's origin (`/gateway/api/...`, `/local/...`) with the launch token. */
export async function fetchThroughGateway<T>(url: string, init: {method?: "GET" | "POST" | "DELETE", body?: unknown} = {}): Promise<T> {
    const headers: Record<string, string> = {...gatewayHeaders(), accept: "application/json"};
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(url, {
        method: init.method ?? "GET",
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body)
    });
    if (!response.ok) throw await readApiError(response);
    const text = await response.text();
    return (text ? JSON.parse(text) : null) as T;
}
