import {SvcClient, type RetryOptions} from "../../../client/sdk/index.ts";
import type {Connection} from "./types.ts";
import {gatewayHeaders} from "./gatewayHeaders.ts";

/**
 * An SvcClient for a connection through the gateway: `/local` forwards to the local engine, `/remote`
 * to the active remote profile with its key added by the gateway. The page never holds a key.
 */
export function svcClientFor(connection: Connection, retry?: RetryOptions): SvcClient {
    return new SvcClient({
        baseUrl: `${location.origin}/${connection.kind === "remote" ? "remote" : "local"}`,
        headers: gatewayHeaders(),
        retry: retry ?? {maxAttempts: 2}
    });
}
