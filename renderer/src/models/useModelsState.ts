import {useQuery} from "@tanstack/react-query";
import {modelsApi} from "./modelsApi.ts";
import type {ModelsState} from "./types.ts";
import {isBusy} from "./utils/isBusy.ts";

export const modelsStateKey = ["models-state"] as const;

/** The library, catalog, downloads and settings: polled quickly while a download runs or the engine starts. */
export function useModelsState() {
    return useQuery<ModelsState>({
        queryKey: modelsStateKey,
        queryFn: modelsApi.state,
        refetchInterval: (query) => query.state.data != null && isBusy(query.state.data) ? 500 : 5000
    });
}
