import {useQuery, useQueryClient} from "@tanstack/react-query";
import {modelsApi} from "./modelsApi.ts";

const gpuKey = ["models-gpu"] as const;

/**
 * The GPU report: detection takes seconds (the gateway runs it in a child process and keeps the answer), so it
 * is read once; `recheck` asks the gateway to detect again (after installing a driver, say).
 */
export function useGpuReport() {
    const client = useQueryClient();
    const query = useQuery({queryKey: gpuKey, queryFn: () => modelsApi.gpu().then((answer) => answer.gpu), staleTime: Infinity, retry: false});
    const recheck = async () => {
        const {gpu} = await modelsApi.gpu(true);
        client.setQueryData(gpuKey, gpu);
    };
    return {...query, recheck};
}
