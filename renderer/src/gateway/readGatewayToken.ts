/** The per-launch token the gateway injected into the page (notes/gateway-contract.md); "" when absent. */
export function readGatewayToken(): string {
    return document.querySelector<HTMLMetaElement>('meta[name="svc-gateway-token"]')?.content ?? "";
}
