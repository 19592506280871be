import {useMutation, useQueryClient} from "@tanstack/react-query";
import {gatewayStateKey} from "../gateway/useGatewayState.ts";
import {modelsStateKey} from "./useModelsState.ts";

/** A models call that changes something: the models state and the engine state are read again afterwards, success or not. */
export function useModelsMutation<A>(call: (arg: A) => Promise<unknown>) {
    const client = useQueryClient();
    return useMutation({
        mutationFn: call,
        onSettled: () => Promise.all([
            client.invalidateQueries({queryKey: modelsStateKey}),
            client.invalidateQueries({queryKey: gatewayStateKey})
        ])
    });
}
