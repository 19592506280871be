import type {Page} from "playwright-core";
import type {GatewayState} from "../../../protocol/gateway/contract.ts";

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

/** The launch token (from the page's meta tag) and the state of a gateway, read from outside any page, as a script would. */
export async function readGatewayState(gatewayUrl: string): Promise<{token: string, state: GatewayState}> {
    const base = gatewayUrl.replace(/\/$/, "");
    const page = await (await fetch(base + "/")).text();
    const token = /<meta name="svc-gateway-token" content="([0-9a-f]{64})">/.exec(page)?.[1];
    if (token == null) throw new Error(`no launch token in the page of ${gatewayUrl}`);
    const state = await (await fetch(base + "/gateway/api/state", {headers: {"X-Gateway-Token": token}})).json() as GatewayState;
    return {token, state};
}
