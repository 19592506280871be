// The gateway's state as React Query holds it, and the connection every request goes through.
import {QueryClient, useQuery, useMutation, useQueryClient} from "@tanstack/react-query";
import {SvcClient, type RetryOptions} from "../../../client/sdk/index.ts";
import {gatewayApi} from "./gatewayApi.ts";
import {gatewayHeaders} from "./gatewayHeaders.ts";
import type {GatewayState, Connection} from "./types.ts";

/** The app's one query cache; run functions outside React read the gateway state from it too. */
export const queryClient = new QueryClient({defaultOptions: {queries: {retry: 1, refetchOnWindowFocus: false}}});

export const gatewayStateKey = ["gateway-state"] as const;

/** The gateway state, polled: fast while the engine starts, slowly otherwise (it can crash or be stopped). */
export function useGatewayState() {
    return useQuery<GatewayState>({
        queryKey: gatewayStateKey,
        queryFn: gatewayApi.state,
        refetchInterval: (query) => query.state.data?.engine.status === "starting" ? 1000 : 5000
    });
}

/** A gateway call that changes state; the state is read again afterwards, success or not. */
export function useGatewayMutation<A>(call: (arg: A) => Promise<unknown>) {
    const client = useQueryClient();
    return useMutation({
        mutationFn: call,
        onSettled: () => client.invalidateQueries({queryKey: gatewayStateKey})
    });
}

/** The active connection in the last gateway state read; the local engine until the state has loaded. */
export function activeConnection(state: GatewayState | undefined = queryClient.getQueryData<GatewayState>(gatewayStateKey)): Connection {
    return state?.connections.find((connection) => connection.id === state.activeConnectionId)
        ?? {id: "local", kind: "local", name: "Local engine", hasKey: false};
}

/**
 * An SvcClient through the gateway: to the local engine (`/local`) when `remoteProfile` is null, else to that saved
 * remote profile (`/remote` with `X-Svc-Connection`), its key added by the gateway. The page never holds a key. The
 * profile is named, not left to the gateway's active one, so a request sent while a switch of connection is still
 * on its way goes where the screen said it would, and an experiment's variant to its own profile.
 */
export function gatewayClient(remoteProfile: string | null, retry: RetryOptions): SvcClient {
    return new SvcClient({
        baseUrl: `${location.origin}/${remoteProfile === null ? "local" : "remote"}`,
        headers: {...gatewayHeaders(), ...remoteProfile === null ? {} : {"x-svc-connection": remoteProfile}},
        retry
    });
}

/** The client for a connection of the switcher (gatewayClient). */
export function svcClientFor(connection: Connection, retry?: RetryOptions): SvcClient {
    return gatewayClient(connection.kind === "remote" ? connection.id : null, retry ?? {maxAttempts: 2});
}
