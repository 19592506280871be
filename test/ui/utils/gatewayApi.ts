import type {Page} from "playwright-core";

/** Calls the gateway's own API from inside the page, with the page's launch token, as the renderer would. */
export function gatewayApi<T>(page: Page, route: string, init: {method?: string, body?: unknown} = {}): Promise<T> {
    return page.evaluate(async ({url, method, body}) => {
        const token = document.querySelector<HTMLMetaElement>("meta[name=svc-gateway-token]")!.content;
        const headers: Record<string, string> = {"X-Gateway-Token": token};
        if (body !== undefined) headers["Content-Type"] = "application/json";
        const response = await fetch(url, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
        return response.json();
    }, {url: `/gateway/api${route}`, method: init.method ?? "GET", body: init.body}) as Promise<T>;
}
