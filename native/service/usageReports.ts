import type {UsageGroup, UsageQuery, UsageRow} from "../../protocol/admin/contract.ts";
import {ServiceStoreError, type ServiceStore} from "./store.ts";

/** The usage groups a report can ask for, and the ledger column of each. */
export const usageGroups: Record<UsageGroup, string> = {key: "key_id", model: "model", day: "day"};

export type UsageSumRow = {workspace_id: string, key_id?: string, model?: string, day?: string, requests: number,
    uncached: number, cached: number, output: number, cost: number};

/**
 * Sums of the usage ledger per workspace and the asked groups (key, model, UTC day), from `since` to `until`
 * inclusive, ordered by the groups. The token sums are what the responses reported (spec §2.3); the cost is what
 * was charged.
 */
export function usageReport(store: ServiceStore, query: UsageQuery): UsageRow[] {
    const columns = usageColumnsOf(query);
    const rows = store.statement(`SELECT ${columns.join(", ")}, COUNT(*) AS requests, SUM(uncached_input_tokens) AS uncached,
        SUM(cached_input_tokens) AS cached, SUM(output_tokens) AS output, SUM(cost_micros) AS cost FROM usage
        WHERE (@workspace IS NULL OR workspace_id = @workspace) AND (@key IS NULL OR key_id = @key) AND (@since IS NULL OR day >= @since)
        AND (@until IS NULL OR day <= @until) GROUP BY ${columns.join(", ")} ORDER BY ${columns.join(", ")}`)
        .all({workspace: query.workspaceId ?? null, key: query.keyId ?? null, since: query.since ?? null, until: query.until ?? null}) as UsageSumRow[];
    return rows.map(toUsageRow);
}

/** The query checked (groups, days): the ledger columns it groups by, the workspace's first. */
export function usageColumnsOf(query: UsageQuery): string[] {
    const groupBy = checkGroups(query.groupBy);
    for (const day of [query.since, query.until])
        if (day != null && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new ServiceStoreError("invalid", `days are written YYYY-MM-DD, got ${JSON.stringify(day)}`);
    return ["workspace_id", ...groupBy.map((group) => usageGroups[group])];
}

export function toUsageRow(row: UsageSumRow): UsageRow {
    return {
        workspaceId: row.workspace_id,
        ...(row.key_id != null ? {keyId: row.key_id} : {}),
        ...(row.model != null ? {model: row.model} : {}),
        ...(row.day != null ? {day: row.day} : {}),
        requests: row.requests,
        uncachedInputTokens: row.uncached,
        cachedInputTokens: row.cached,
        outputTokens: row.output,
        costMicros: row.cost
    };
}

/** Group names as given (`key`, `model`, `day`), each once; anything else is refused with the list. */
export function checkGroups(groups: readonly string[]): UsageGroup[] {
    const known = Object.keys(usageGroups);
    for (const group of groups)
        if (!known.includes(group)) throw new ServiceStoreError("invalid", `usage groups are ${known.join(", ")}; got ${JSON.stringify(group)}`);
    return [...new Set(groups)] as UsageGroup[];
}
