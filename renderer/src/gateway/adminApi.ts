import {adminPrefix, createAdminClient} from "../../../protocol/admin/routes.ts";
import {fetchThroughGateway} from "./gatewayFetch.ts";

/**
 * The local engine's admin API (protocol/admin), typed, through the gateway's `/local` proxy: the gateway adds the
 * engine's launch key, which the app's engine takes as its admin key, so the page never holds a credential for it.
 */
export const adminApi = createAdminClient((method, path, body, query) =>
    fetchThroughGateway(`/local${adminPrefix}${path}${query == null ? "" : `?${query}`}`, {method, body}));
