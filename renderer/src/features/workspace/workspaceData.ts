// The Workspace screen's data: the local engine's admin API (through the gateway) as React Query holds it, and the
// screen's own state (the workspace shown, the secret just issued).
import {useMutation, useQuery, useQueryClient} from "@tanstack/react-query";
import {create} from "zustand";
import type {ApiKeyInfo, IssuedKey} from "../../../../protocol/admin/contract.ts";
import {adminApi} from "../../gateway/adminApi.ts";
import {usageGroupBy} from "./usage.ts";

const adminKey = ["admin"] as const;

export function useOrganizations() {
    return useQuery({queryKey: [...adminKey, "organizations"], queryFn: adminApi.organizations});
}

export function useWorkspaces() {
    return useQuery({queryKey: [...adminKey, "workspaces"], queryFn: adminApi.workspaces});
}

export function useKeys(workspaceId: string) {
    return useQuery({queryKey: [...adminKey, "keys", workspaceId], queryFn: () => adminApi.keys(workspaceId)});
}

export function usePrices() {
    return useQuery({queryKey: [...adminKey, "prices"], queryFn: adminApi.prices});
}

export function useRateLimits(workspaceId: string) {
    return useQuery({queryKey: [...adminKey, "rate-limits", workspaceId], queryFn: () => adminApi.rateLimits(workspaceId)});
}

/** Read again on every visit (requests made elsewhere in the app add usage) and on demand. */
export function useUsage(workspaceId: string) {
    return useQuery({queryKey: [...adminKey, "usage", workspaceId], queryFn: () => adminApi.usage({workspaceId, groupBy: usageGroupBy})});
}

/** An admin call that changes something; every admin query is read again afterwards (balances, key states, usage). */
export function useAdminMutation<A, R>(call: (arg: A) => Promise<R>) {
    const client = useQueryClient();
    return useMutation({mutationFn: call, onSettled: () => client.invalidateQueries({queryKey: adminKey})});
}

/** A secret just issued (created or rotated), shown once in the secret dialog and dropped when it closes. */
export type IssuedSecret = IssuedKey & {action: "created" | "rotated", previous?: ApiKeyInfo};

type WorkspaceScreenState = {
    workspaceId: string | null,
    issued: IssuedSecret | null,
    select: (workspaceId: string) => void,
    showIssued: (issued: IssuedSecret | null) => void
};

/** In memory only: a reload forgets the secret, as the service does once it has shown it. */
export const useWorkspaceScreenStore = create<WorkspaceScreenState>()((set) => ({
    workspaceId: null,
    issued: null,
    select: (workspaceId) => set({workspaceId}),
    showIssued: (issued) => set({issued})
}));
