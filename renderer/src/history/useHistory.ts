import {useQuery} from "@tanstack/react-query";
import {historyDb} from "./historyDb.ts";

export const historyKey = ["history"] as const;

export function useHistory() {
    return useQuery({queryKey: historyKey, queryFn: historyDb.list});
}
