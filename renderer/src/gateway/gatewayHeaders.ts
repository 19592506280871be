// The launch token the gateway put in the page, sent as a header on every call through the gateway.
/** The per-launch token the gateway injected into the page (notes/gateway-contract.md); "" when absent. */
export function readGatewayToken(): string {
    return document.querySelector<HTMLMetaElement>('meta[name="svc-gateway-token"]')?.content ?? "";
}

let token: string | null = null;

/** Headers every gateway call carries: the launch token, read once from the page. */
export function gatewayHeaders(): Record<string, string> {
    token ??= readGatewayToken();
    return {"X-Gateway-Token": token};
}
