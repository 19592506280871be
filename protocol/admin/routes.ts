// The engine's admin API under `/admin/v1`, as one table: the engine dispatches on it (native/service/adminRoutes.ts)
// and the app's typed client calls through it. Loopback-only, or behind the admin key (docs/team-server.md).
import {type RouteSend, routeTable} from "../routeTable.ts";
import type {ApiKeyInfo, IssuedKey, ModelPrice, NewKey, Organization, RateLimit, UsageQuery, UsageRow, Workspace} from "./contract.ts";

/** Every admin path starts here; `/metrics` sits beside it under the same authorization. */
export const adminPrefix = "/admin/v1";

/** The engine's own routes, the admin API and `/metrics`: the admin key's, whatever the mode. */
export function isEngineAdminPath(pathname: string): boolean {
    return pathname === "/metrics" || pathname === adminPrefix || pathname.startsWith(`${adminPrefix}/`);
}

export const adminRoutes = {
    organizations: {method: "GET", path: "/organizations"},
    createOrganization: {method: "POST", path: "/organizations"},
    workspaces: {method: "GET", path: "/workspaces"},
    createWorkspace: {method: "POST", path: "/workspaces"},
    activateWorkspace: {method: "POST", path: "/workspaces/:id/activate"},
    addCredits: {method: "POST", path: "/workspaces/:id/credits"},
    prices: {method: "GET", path: "/prices"},
    setPrice: {method: "POST", path: "/prices"},
    rateLimits: {method: "GET", path: "/rate-limits"},
    setRateLimit: {method: "POST", path: "/rate-limits"},
    keys: {method: "GET", path: "/keys"},
    createKey: {method: "POST", path: "/keys"},
    rotateKey: {method: "POST", path: "/keys/:id/rotate"},
    revokeKey: {method: "POST", path: "/keys/:id/revoke"},
    usage: {method: "POST", path: "/usage"}
} as const;

export type AdminRouteName = keyof typeof adminRoutes;

/** What each route takes (body) and answers. Lists filter by the query string (`workspace=<id>`). */
export type AdminRouteTypes = {
    organizations: {body: undefined, answer: {organizations: Organization[]}},
    createOrganization: {body: {name: string}, answer: {organization: Organization}},
    workspaces: {body: undefined, answer: {workspaces: Workspace[]}},
    createWorkspace: {body: {organizationId: string, name: string}, answer: {workspace: Workspace}},
    activateWorkspace: {body: Record<string, never>, answer: {workspace: Workspace}},
    /** `amountMicros`: integer micro-units (money.ts); positive. */
    addCredits: {body: {amountMicros: number, note?: string}, answer: {workspace: Workspace}},
    prices: {body: undefined, answer: {prices: ModelPrice[]}},
    setPrice: {body: ModelPrice, answer: {price: ModelPrice}},
    rateLimits: {body: undefined, answer: {rateLimits: RateLimit[]}},
    setRateLimit: {body: RateLimit, answer: {rateLimit: RateLimit}},
    keys: {body: undefined, answer: {keys: ApiKeyInfo[]}},
    createKey: {body: NewKey, answer: IssuedKey},
    rotateKey: {body: Record<string, never>, answer: IssuedKey},
    revokeKey: {body: Record<string, never>, answer: {key: ApiKeyInfo}},
    usage: {body: UsageQuery, answer: {rows: UsageRow[]}}
};

export const adminTable = routeTable(adminRoutes);

/** A typed client of every admin route over `send`, which is given paths below {@link adminPrefix}. */
export function createAdminClient(send: RouteSend) {
    const call = adminTable.caller<AdminRouteTypes>(send);
    const byWorkspace = (workspaceId?: string) => workspaceId == null ? undefined : `workspace=${encodeURIComponent(workspaceId)}`;
    return {
        organizations: () => call("organizations"),
        createOrganization: (name: string) => call("createOrganization", {body: {name}}),
        workspaces: () => call("workspaces"),
        createWorkspace: (organizationId: string, name: string) => call("createWorkspace", {body: {organizationId, name}}),
        activateWorkspace: (id: string) => call("activateWorkspace", {params: {id}, body: {}}),
        addCredits: (id: string, amountMicros: number, note?: string) => call("addCredits", {params: {id}, body: {amountMicros, note}}),
        prices: () => call("prices"),
        setPrice: (price: ModelPrice) => call("setPrice", {body: price}),
        rateLimits: (workspaceId?: string) => call("rateLimits", {query: byWorkspace(workspaceId)}),
        setRateLimit: (limit: RateLimit) => call("setRateLimit", {body: limit}),
        keys: (workspaceId?: string) => call("keys", {query: byWorkspace(workspaceId)}),
        /** The answer's `secret` is shown once: it is stored only as a hash. */
        createKey: (key: NewKey) => call("createKey", {body: key}),
        rotateKey: (id: string) => call("rotateKey", {params: {id}, body: {}}),
        revokeKey: (id: string) => call("revokeKey", {params: {id}, body: {}}),
        usage: (query: UsageQuery) => call("usage", {body: query})
    };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
