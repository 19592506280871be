import type {Page} from "playwright-core";
import type {GatewayState} from "../../../protocol/gateway/contract.ts";

/** Calls the gateway's own API from inside the page, with the page's session cookie, as the renderer does. */
export function gatewayApi<T>(page: Page, route: string, init: {method?: string, body?: unknown} = {}): Promise<T> {
    return page.evaluate(async ({url, method, body}) => {
        const headers: Record<string, string> = {};
        if (body !== undefined) headers["Content-Type"] = "application/json";
        const response = await fetch(url, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
        return response.json();
    }, {url: `/gateway/api${route}`, method: init.method ?? "GET", body: init.body}) as Promise<T>;
}

/** The launch token (from the address it printed) and the state of a gateway, read from outside any page, as a script would. */
export async function readGatewayState(gateway: {url: string, token: string}): Promise<{token: string, state: GatewayState}> {
    const {token} = gateway;
    const base = gateway.url.replace(/\/$/, "");
    const state = await (await fetch(base + "/gateway/api/state", {headers: {"X-Gateway-Token": token}})).json() as GatewayState;
    return {token, state};
}
