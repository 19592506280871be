import {readGatewayToken} from "./readGatewayToken.ts";

let token: string | null = null;

/** Headers every gateway call carries: the launch token, read once from the page. */
export function gatewayHeaders(): Record<string, string> {
    token ??= readGatewayToken();
    return {"X-Gateway-Token": token};
}
