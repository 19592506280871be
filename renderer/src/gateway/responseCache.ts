import type {ResponseCache} from "../../../client/scoring/responseCache.ts";
import {gatewayApi} from "./gatewayApi.ts";

/**
 * The response cache the gateway keeps in the app's data folder (electron/appData/ResponseCacheStore.ts): answers by
 * what was sent, so an experiment run again after an edit sends only the cells whose request changed.
 */
export const gatewayResponseCache: ResponseCache = {
    async get(key) {
        return (await gatewayApi.cachedResponse(key)).value ?? undefined;
    },
    async put(key, value) {
        await gatewayApi.putCachedResponse(key, value);
    }
};
