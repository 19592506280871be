// The Workspace screen's usage report: one admin query grouped by day, key and model, folded into the chart's series
// (per day, stacked by key or by model) and the table's totals. Money stays in integer micro-units (money.ts).
import type {ApiKeyInfo, UsageGroup, UsageRow} from "../../../../protocol/admin/contract.ts";

/** What the report asks the engine for: every day, key and model of one workspace; the views fold it down. */
export const usageGroupBy: UsageGroup[] = ["day", "key", "model"];

export type UsageSplit = "key" | "model";
export type UsageMetric = "tokens" | "cost";

/** Tokens as spec §2.3 bills them: uncached and cached input, then output. */
export function totalTokens(row: UsageRow): number {
    return row.uncachedInputTokens + row.cachedInputTokens + row.outputTokens;
}

/** A key's label in charts and tables: its name and public start, or the id of a key no longer listed. */
export function keyLabel(keyId: string | undefined, keys: ApiKeyInfo[]): string {
    const key = keys.find((candidate) => candidate.id === keyId);
    return key == null ? keyId ?? "(no key)" : `${key.name} (${key.hint}…)`;
}

export type UsageChart = {
    /** One point per day (oldest first): `day`, then one number per series (tokens, or cost in micro-units). */
    points: Array<{day: string} & Record<string, number | string>>,
    series: string[]
};

/** The report's rows as a stacked chart: a bar per day, a segment per key or per model. */
export function usageChart(rows: UsageRow[], split: UsageSplit, metric: UsageMetric, keys: ApiKeyInfo[]): UsageChart {
    const byDay = new Map<string, Record<string, number>>();
    const series = new Set<string>();
    for (const row of rows) {
        const name = split === "key" ? keyLabel(row.keyId, keys) : row.model ?? "(no model)";
        series.add(name);
        const day = byDay.get(row.day ?? "") ?? {};
        day[name] = (day[name] ?? 0) + (metric === "tokens" ? totalTokens(row) : row.costMicros);
        byDay.set(row.day ?? "", day);
    }
    const points = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, values]) => ({day, ...values}));
    return {points, series: [...series].sort()};
}

export type UsageTotal = {name: string, requests: number, inputTokens: number, cachedInputTokens: number, outputTokens: number, costMicros: number};

/** The report summed per key or per model over every day, biggest cost first (then most tokens). */
export function usageTotals(rows: UsageRow[], split: UsageSplit, keys: ApiKeyInfo[]): UsageTotal[] {
    const totals = new Map<string, UsageTotal>();
    for (const row of rows) {
        const name = split === "key" ? keyLabel(row.keyId, keys) : row.model ?? "(no model)";
        const total = totals.get(name) ?? {name, requests: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costMicros: 0};
        total.requests += row.requests;
        total.inputTokens += row.uncachedInputTokens;
        total.cachedInputTokens += row.cachedInputTokens;
        total.outputTokens += row.outputTokens;
        total.costMicros += row.costMicros;
        totals.set(name, total);
    }
    const tokens = (total: UsageTotal) => total.inputTokens + total.cachedInputTokens + total.outputTokens;
    return [...totals.values()].sort((a, b) => b.costMicros - a.costMicros || tokens(b) - tokens(a) || a.name.localeCompare(b.name));
}

/** Distinct series colours from the theme first, then fixed hues that read on both themes. */
export const seriesColors = ["var(--accent)", "var(--ok)", "var(--warn)", "var(--danger)", "#4fb3d9", "#c77dff", "#8f9bb3", "#e07a5f"];
