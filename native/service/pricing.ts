import type {ModelPrice, RateLimit} from "../../protocol/admin/contract.ts";
import {modelIds} from "../../protocol/limits.ts";
import {ServiceStoreError, type ServiceStore} from "./store.ts";
import {requireWorkspace} from "./accounts.ts";

// Per-model prices (spec §2.3 rule 2) and per-workspace, per-model rate limits (spec §8), as the admin sets them.
// Both are read on each request, so a change from the CLI holds from the next request of a running server.

/** A model with no price set is served at no charge, but still needs an activated workspace with credit (spec §5 rule 3). */
export const freePrice = (model: string): ModelPrice => ({model, inputMicrosPerMillion: 0, cachedInputMicrosPerMillion: 0, outputMicrosPerMillion: 0});

export function setPrice(store: ServiceStore, price: ModelPrice): ModelPrice {
    checkPrice(price);
    store.statement(`INSERT INTO prices (model, input_micros_per_million, cached_input_micros_per_million, output_micros_per_million) VALUES (?, ?, ?, ?)
        ON CONFLICT (model) DO UPDATE SET input_micros_per_million = excluded.input_micros_per_million,
        cached_input_micros_per_million = excluded.cached_input_micros_per_million, output_micros_per_million = excluded.output_micros_per_million`)
        .run(price.model, price.inputMicrosPerMillion, price.cachedInputMicrosPerMillion, price.outputMicrosPerMillion);
    return getPrice(store, price.model);
}

/** A price's model id and rates, checked: whole micro-units per million, and free decision output. */
export function checkPrice(price: ModelPrice) {
    requireModelId(price.model);
    for (const field of ["inputMicrosPerMillion", "cachedInputMicrosPerMillion", "outputMicrosPerMillion"] as const)
        requireCount(price[field], `${field} of ${price.model}`);
    // Spec §1 rule 4: decision output tokens are free; a price for them would never be charged, so it is refused.
    if (price.model === modelIds.decision && price.outputMicrosPerMillion !== 0)
        throw new ServiceStoreError("invalid", `${modelIds.decision} output tokens are free (spec §1 rule 4); set its output price to 0`);
}

export function getPrice(store: ServiceStore, model: string): ModelPrice {
    const row = store.statement("SELECT * FROM prices WHERE model = ?").get(model) as PriceRow | undefined;
    return row == null ? freePrice(model) : toPrice(row);
}

export function listPrices(store: ServiceStore): ModelPrice[] {
    return (store.statement("SELECT * FROM prices ORDER BY model").all() as PriceRow[]).map(toPrice);
}

/** Sets a workspace's limits for one model; both null removes the row (no limit). */
export function setRateLimit(store: ServiceStore, limit: RateLimit): RateLimit {
    checkRateLimit(limit);
    return store.transaction(() => {
        const workspace = requireWorkspace(store, limit.workspaceId);
        if (limit.requestsPerMinute == null && limit.tokensPerMinute == null)
            store.statement("DELETE FROM rate_limits WHERE workspace_id = ? AND model = ?").run(workspace.id, limit.model);
        else store.statement(`INSERT INTO rate_limits (workspace_id, model, requests_per_minute, tokens_per_minute) VALUES (?, ?, ?, ?)
            ON CONFLICT (workspace_id, model) DO UPDATE SET requests_per_minute = excluded.requests_per_minute, tokens_per_minute = excluded.tokens_per_minute`)
            .run(workspace.id, limit.model, limit.requestsPerMinute, limit.tokensPerMinute);
        return getRateLimit(store, workspace.id, limit.model);
    });
}

/** A limit's model id and rates, checked: whole numbers from 1, or null for none. */
export function checkRateLimit(limit: RateLimit) {
    requireModelId(limit.model);
    for (const field of ["requestsPerMinute", "tokensPerMinute"] as const)
        if (limit[field] != null) requireCount(limit[field], field, 1);
}

export function getRateLimit(store: ServiceStore, workspaceId: string, model: string): RateLimit {
    const row = store.statement("SELECT * FROM rate_limits WHERE workspace_id = ? AND model = ?").get(workspaceId, model) as LimitRow | undefined;
    return row == null ? {workspaceId, model, requestsPerMinute: null, tokensPerMinute: null} : toLimit(row);
}

export function listRateLimits(store: ServiceStore, workspaceId?: string): RateLimit[] {
    return (store.statement("SELECT * FROM rate_limits WHERE @workspace IS NULL OR workspace_id = @workspace ORDER BY workspace_id, model")
        .all({workspace: workspaceId ?? null}) as LimitRow[]).map(toLimit);
}

export type PriceRow = {model: string, input_micros_per_million: number, cached_input_micros_per_million: number, output_micros_per_million: number};
export type LimitRow = {workspace_id: string, model: string, requests_per_minute: number | null, tokens_per_minute: number | null};

export function toPrice(row: PriceRow): ModelPrice {
    return {
        model: row.model,
        inputMicrosPerMillion: row.input_micros_per_million,
        cachedInputMicrosPerMillion: row.cached_input_micros_per_million,
        outputMicrosPerMillion: row.output_micros_per_million
    };
}

export function toLimit(row: LimitRow): RateLimit {
    return {workspaceId: row.workspace_id, model: row.model, requestsPerMinute: row.requests_per_minute, tokensPerMinute: row.tokens_per_minute};
}

function requireModelId(model: string) {
    if (typeof model !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(model))
        throw new ServiceStoreError("invalid", `not a model id: ${JSON.stringify(model)} (e.g. ${modelIds.chat}, ${modelIds.decision})`);
}

function requireCount(value: number, what: string, min = 0) {
    if (!Number.isSafeInteger(value) || value < min)
        throw new ServiceStoreError("invalid", `${what} must be a whole number from ${min}, got ${JSON.stringify(value)}`);
}
