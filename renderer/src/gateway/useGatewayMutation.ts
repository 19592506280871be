import {useMutation, useQueryClient} from "@tanstack/react-query";
import {gatewayStateKey} from "./useGatewayState.ts";

/** A gateway call that changes state; the state is read again afterwards, success or not. */
export function useGatewayMutation<A>(call: (arg: A) => Promise<unknown>) {
    const client = useQueryClient();
    return useMutation({
        mutationFn: call,
        onSettled: () => client.invalidateQueries({queryKey: gatewayStateKey})
    });
}
