// A workspace's usage from the engine's ledger: tokens or cost per day, stacked by key or by model, the totals, and
// the report as CSV (protocol/admin/usageCsv.ts, the same file `svc-studio admin usage --csv` writes).
import {useState} from "react";
import {Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis} from "recharts";
import type {Workspace} from "../../../../protocol/admin/contract.ts";
import {axisMoney, displayMoney, formatMoney, moneyUnit} from "../../../../protocol/admin/money.ts";
import {usageCsv} from "../../../../protocol/admin/usageCsv.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {downloadFile} from "../../ui/browser.ts";
import {chartName} from "../../ui/chartName.ts";
import {seriesColors, type UsageMetric, type UsageSplit, usageChart, usageGroupBy, usageTotals} from "./usage.ts";
import {useKeys, useUsage} from "./workspaceData.ts";

const formatTokens = (value: number) => value.toLocaleString("en-US");

export function UsageCard({workspace}: {workspace: Workspace}) {
    const usage = useUsage(workspace.id);
    const keys = useKeys(workspace.id).data?.keys ?? [];
    const [split, setSplit] = useState<UsageSplit>("key");
    const [metric, setMetric] = useState<UsageMetric>("tokens");
    const rows = usage.data?.rows ?? [];
    const chart = usageChart(rows, split, metric, keys);
    const totals = usageTotals(rows, split, keys);
    // One money format: the axis's ticks share their decimals, the table and the tooltip read as the balance does.
    const largest = Math.max(0, ...chart.points.map((point) => chart.series.reduce((sum, name) => sum + Number((point as Record<string, unknown>)[name] ?? 0), 0)));
    const axisFormat = metric === "cost" ? axisMoney(largest) : formatTokens;
    const format = (value: number) => metric === "cost" ? `${displayMoney(value)} ${moneyUnit}` : formatTokens(value);
    return (
        <section className="card" data-testid="usage-card">
            <div className="card-title-row">
                <h3>Usage</h3>
                <Segmented value={metric} onChange={setMetric} options={[["tokens", "Tokens"], ["cost", "Cost"]]} testId="usage-metric" />
                <Segmented value={split} onChange={setSplit} options={[["key", "By key"], ["model", "By model"]]} testId="usage-split" />
                <span className="spacer" />
                <button type="button" className="btn btn-sm" disabled={usage.isFetching} onClick={() => void usage.refetch()} data-testid="usage-refresh">Refresh</button>
                <button type="button" className="btn btn-sm" disabled={rows.length === 0} data-testid="usage-csv"
                    onClick={() => downloadFile(`usage-${workspace.name.replace(/[^\w.-]+/g, "_")}.csv`, usageCsv(rows, usageGroupBy), "text/csv")}>Export CSV</button>
            </div>
            {rows.length === 0
                ? <div className="empty-state" data-testid="usage-empty">No usage yet: requests with this workspace's keys show here, per day, key and model.</div>
                : <>
                    <div className="usage-chart" data-testid="usage-chart">
                        <ResponsiveContainer width="100%" height="100%">
                            <BarChart data={chart.points} margin={{top: 8, right: 8, bottom: 0, left: 8}}
                                {...chartName(`${metric === "cost" ? "Cost" : "Tokens"} per day, stacked by ${split}; the table below lists each ${split}'s totals`)}>
                                <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" vertical={false} />
                                <XAxis dataKey="day" tick={{fill: "var(--muted)", fontSize: 11}} />
                                <YAxis tick={{fill: "var(--muted)", fontSize: 11}} tickFormatter={axisFormat} width={metric === "cost" ? 72 : 56}
                                    label={metric === "cost" ? {value: moneyUnit, angle: -90, position: "insideLeft", fill: "var(--muted)", fontSize: 11} : undefined} />
                                <Tooltip formatter={(value) => format(Number(value))} cursor={{fill: "var(--surface-3)"}}
                                    contentStyle={{background: "var(--surface)", border: "1px solid var(--border)"}} />
                                <Legend wrapperStyle={{fontSize: 12}} />
                                {chart.series.map((name, index) => (
                                    <Bar key={name} dataKey={name} stackId="usage" fill={seriesColors[index % seriesColors.length]} isAnimationActive={false} maxBarSize={48} />
                                ))}
                            </BarChart>
                        </ResponsiveContainer>
                    </div>
                    <table className="table usage-table" data-testid="usage-table">
                        <thead><tr><th>{split === "key" ? "Key" : "Model"}</th><th>Requests</th><th>Uncached input</th><th>Cached input</th><th>Output</th><th>Cost ({moneyUnit})</th></tr></thead>
                        <tbody>
                            {totals.map((total) => (
                                <tr key={total.name} data-testid="usage-row">
                                    <td>{total.name}</td>
                                    <td className="mono" data-testid="usage-requests">{formatTokens(total.requests)}</td>
                                    <td className="mono" data-testid="usage-input">{formatTokens(total.inputTokens)}</td>
                                    <td className="mono" data-testid="usage-cached">{formatTokens(total.cachedInputTokens)}</td>
                                    <td className="mono" data-testid="usage-output">{formatTokens(total.outputTokens)}</td>
                                    <td className="mono" data-testid="usage-cost" title={`${formatMoney(total.costMicros)} ${moneyUnit} exactly`}>{displayMoney(total.costMicros)}</td>
                                </tr>
                            ))}
                        </tbody>
                    </table>
                </>}
            {usage.error && <ApiErrorView error={toErrorInfo(usage.error)} />}
        </section>
    );
}

function Segmented<T extends string>({value, onChange, options, testId}: {value: T, onChange: (value: T) => void, options: Array<[T, string]>, testId: string}) {
    return (
        <div className="segmented" role="group" data-testid={testId}>
            {options.map(([id, label]) => (
                <button key={id} type="button" className={id === value ? "active" : ""} aria-pressed={id === value} onClick={() => onChange(id)}
                    data-testid={`${testId}-${id}`}>{label}</button>
            ))}
        </div>
    );
}
