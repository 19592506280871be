// What every call through the gateway carries besides its own headers. The credential is not among them: the gateway
// authenticates the page by its session cookie (HttpOnly, so this script cannot read it), which the browser sends with
// every same-origin request; no page holds the launch token (electron/gateway/session.ts).

/** Headers every gateway call carries: none today; the one place to add one. */
export function gatewayHeaders(): Record<string, string> {
    return {};
}
