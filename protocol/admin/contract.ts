// The engine's admin API contract (`/admin/v1/...` on `svc-studio serve`): the shapes the engine answers and the
// app's Workspace screen reads, for the service side of spec §1 rules 4-5, §3, §5 and §8 (organizations,
// workspaces, keys, credits, prices, rate limits, usage). The routes are in `routes.ts`.
//
// Money is integer micro-units of the currency (1 = 0.000001), never a float (money.ts converts).

/** Spec §5 rule 1: every key starts `ck_`. */
export const keyPrefix = "ck_";

// `ck_<lookup>_<secret>`: the lookup (12 hex characters) finds the key's row and may be shown (the `hint`); the
// secret is 32 random bytes, base64url.
const keyPattern = /^ck_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

/** The lookup part of a well-formed key, or undefined for a malformed one (no `ck_` prefix, wrong shape). */
export function keyLookup(key: string): string | undefined {
    return keyPattern.exec(key)?.[1];
}

export type Organization = {id: string, name: string, createdAt: string};

/** Spec §3: a workspace is not activated, or activated (the local stand-in for "a payment method is added"). */
export type Workspace = {
    id: string,
    organizationId: string,
    name: string,
    activatedAt: string | null,
    /** Credits added less usage charged; may go below zero by at most the stated overdraft bound (docs/team-server.md, "Charging"). */
    balanceMicros: number,
    /** Credits added, ever. */
    creditedMicros: number,
    createdAt: string
};

/** Spec §2.3 rule 2: uncached input, cached input and output each at its own rate, per million tokens. */
export type ModelPrice = {
    model: string,
    inputMicrosPerMillion: number,
    cachedInputMicrosPerMillion: number,
    outputMicrosPerMillion: number
};

/** Spec §8: a sustained rate per workspace per model; null is no limit. */
export type RateLimit = {workspaceId: string, model: string, requestsPerMinute: number | null, tokensPerMinute: number | null};

/** Spec §5 rule 2: a key is owned by a user or by the workspace. */
export type KeyOwner = {type: "user", userId: string} | {type: "workspace"};

/** Spec §3: created or rotated (inside the activation window), active, revoked. */
export type KeyState = "activating" | "active" | "revoked";

/** A key as listed: never its secret, which is shown once, when created or rotated. */
export type ApiKeyInfo = {
    id: string,
    workspaceId: string,
    name: string,
    owner: KeyOwner,
    /** Spec §5 rule 2: private to its owner, or shared with the workspace. A workspace-owned key is shared. */
    visibility: "private" | "shared",
    /** The key's public start (`ck_<lookup>_`), enough to recognise it in a list. */
    hint: string,
    state: KeyState,
    createdAt: string,
    /** When the current secret was issued: creation or the last rotation. */
    issuedAt: string,
    revokedAt: string | null
};

/** A key with its secret: the only answer that carries it. */
export type IssuedKey = {key: ApiKeyInfo, secret: string};

export type UsageGroup = "key" | "model" | "day";

export type UsageQuery = {
    workspaceId?: string,
    keyId?: string,
    /** Columns to group by, in this order; none sums everything. */
    groupBy: UsageGroup[],
    /** UTC days `YYYY-MM-DD`, inclusive. */
    since?: string,
    until?: string
};

/** One line of a usage report: the group's values, then its sums. Token counts as spec §2.3 rule 2 bills them. */
export type UsageRow = {
    workspaceId?: string,
    keyId?: string,
    model?: string,
    day?: string,
    requests: number,
    /** Input tokens less the cached ones (spec §2.3 rule 2). */
    uncachedInputTokens: number,
    cachedInputTokens: number,
    outputTokens: number,
    costMicros: number
};

export type NewKey = {workspaceId: string, name?: string, owner?: KeyOwner, visibility?: "private" | "shared"};
