import {useQuery} from "@tanstack/react-query";
import {gatewayApi} from "./gatewayApi.ts";
import type {GatewayState} from "./types.ts";

export const gatewayStateKey = ["gateway-state"] as const;

/** The gateway state, polled: fast while the engine starts, slowly otherwise (it can crash or be stopped). */
export function useGatewayState() {
    return useQuery<GatewayState>({
        queryKey: gatewayStateKey,
        queryFn: gatewayApi.state,
        refetchInterval: (query) => query.state.data?.engine.status === "starting" ? 1000 : 5000
    });
}
