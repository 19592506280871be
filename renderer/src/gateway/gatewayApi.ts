import {createGatewayClient} from "../../../protocol/gateway/routes.ts";
import {gatewayFetch} from "./gatewayFetch.ts";

/** Every `/gateway/api` route (protocol/gateway/routes.ts), typed, on this page's origin with the launch token. */
export const gatewayApi = createGatewayClient((method, path, body, query) => gatewayFetch(query == null ? path : `${path}?${query}`, {method, body}));
