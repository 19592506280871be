// Per-model prices (spec §2.3 rule 2: uncached input, cached input, output, per million tokens; engine-wide) and a
// workspace's per-model rate limits (spec §8: requests and tokens per minute), editable one model at a time.
import {useState} from "react";
import type {ModelPrice, RateLimit, Workspace} from "../../../../protocol/admin/contract.ts";
import {formatMoney, parseMoney} from "../../../../protocol/admin/money.ts";
import {modelRoles} from "../../../../protocol/gateway/contract.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {adminApi} from "../../gateway/adminApi.ts";
import {ApiErrorView, toErrorInfo} from "../../ui/ApiErrorView.tsx";
import {useAdminMutation, usePrices, useRateLimits} from "./workspaceData.ts";

/** The served models first, then any other model the store has a row for. */
function modelsOf(rows: Array<{model: string}>): string[] {
    return [...new Set([...modelRoles, ...rows.map((row) => row.model)])];
}

const priceFields = [
    ["inputMicrosPerMillion", "Input"],
    ["cachedInputMicrosPerMillion", "Cached input"],
    ["outputMicrosPerMillion", "Output"]
] as const;

export function PricesCard() {
    const prices = usePrices();
    const rows = prices.data?.prices ?? [];
    return (
        <section className="card" data-testid="prices-card">
            <div className="card-title-row"><h3>Prices</h3><span className="muted small">per million tokens, every workspace; no price: free</span></div>
            <table className="table edit-table">
                <thead><tr><th>Model</th>{priceFields.map(([, label]) => <th key={label}>{label}</th>)}<th /></tr></thead>
                <tbody>
                    {modelsOf(rows).map((model) => (
                        <PriceRow key={model} model={model} price={rows.find((row) => row.model === model)} />
                    ))}
                </tbody>
            </table>
            {prices.error && <ApiErrorView error={toErrorInfo(prices.error)} />}
        </section>
    );
}

function PriceRow({model, price}: {model: string, price?: ModelPrice}) {
    const shown = (field: typeof priceFields[number][0]) => formatMoney(price?.[field] ?? 0);
    const [texts, setTexts] = useState<Record<string, string>>({});
    const save = useAdminMutation(() => adminApi.setPrice({
        model,
        ...Object.fromEntries(priceFields.map(([field]) => [field, parseMoney(texts[field] ?? shown(field))])) as Omit<ModelPrice, "model">
    }));
    const changed = Object.keys(texts).some((field) => texts[field] !== shown(field as typeof priceFields[number][0]));
    return (
        <>
            <tr data-testid="price-row" data-model={model}>
                <td className="mono small">{model}</td>
                {priceFields.map(([field, label]) => {
                    // Spec §1 rule 4: decision output tokens are free, and the engine refuses a price for them.
                    const fixed = model === modelIds.decision && field === "outputMicrosPerMillion";
                    return (
                        <td key={field}>
                            <input className="input input-sm mono" inputMode="decimal" value={texts[field] ?? shown(field)} disabled={fixed}
                                title={fixed ? "Decision output tokens are free: a decision is billed on its input only" : undefined} aria-label={`${label} price of ${model}`}
                                onChange={(event) => setTexts({...texts, [field]: event.target.value})} data-testid={`price-${field}`} />
                        </td>
                    );
                })}
                <td>{changed && <button type="button" className="btn btn-sm" disabled={save.isPending}
                    onClick={() => save.mutate(undefined, {onSuccess: () => setTexts({})})} data-testid="price-save">Save</button>}</td>
            </tr>
            {save.error && <tr><td colSpan={5}><ApiErrorView error={toErrorInfo(save.error)} /></td></tr>}
        </>
    );
}

export function RateLimitsCard({workspace}: {workspace: Workspace}) {
    const limits = useRateLimits(workspace.id);
    const rows = limits.data?.rateLimits ?? [];
    return (
        <section className="card" data-testid="rate-limits-card">
            <div className="card-title-row"><h3>Rate limits</h3><span className="muted small">this workspace, per model; empty: no limit</span></div>
            <table className="table edit-table">
                <thead><tr><th>Model</th><th>Requests / min</th><th>Tokens / min</th><th /></tr></thead>
                <tbody>
                    {modelsOf(rows).map((model) => (
                        <LimitRow key={model} workspaceId={workspace.id} model={model} limit={rows.find((row) => row.model === model)} />
                    ))}
                </tbody>
            </table>
            {limits.error && <ApiErrorView error={toErrorInfo(limits.error)} />}
        </section>
    );
}

const limitFields = [["requestsPerMinute", "Requests per minute"], ["tokensPerMinute", "Tokens per minute"]] as const;

function LimitRow({workspaceId, model, limit}: {workspaceId: string, model: string, limit?: RateLimit}) {
    const shown = (field: typeof limitFields[number][0]) => limit?.[field]?.toString() ?? "";
    const [texts, setTexts] = useState<Record<string, string>>({});
    const value = (field: typeof limitFields[number][0]) => (texts[field] ?? shown(field)).trim();
    const invalid = limitFields.some(([field]) => value(field) !== "" && !/^[1-9]\d*$/.test(value(field)));
    const save = useAdminMutation(() => adminApi.setRateLimit({
        workspaceId, model,
        requestsPerMinute: value("requestsPerMinute") === "" ? null : Number(value("requestsPerMinute")),
        tokensPerMinute: value("tokensPerMinute") === "" ? null : Number(value("tokensPerMinute"))
    }));
    const changed = limitFields.some(([field]) => value(field) !== shown(field));
    return (
        <>
            <tr data-testid="limit-row" data-model={model}>
                <td className="mono small">{model}</td>
                {limitFields.map(([field, label]) => (
                    <td key={field}>
                        <input className="input input-sm mono" inputMode="numeric" placeholder="no limit" value={texts[field] ?? shown(field)} aria-invalid={invalid}
                            aria-label={`${label} of ${model}`} onChange={(event) => setTexts({...texts, [field]: event.target.value})} data-testid={`limit-${field}`} />
                    </td>
                ))}
                <td>{changed && <button type="button" className="btn btn-sm" disabled={save.isPending || invalid}
                    onClick={() => save.mutate(undefined, {onSuccess: () => setTexts({})})} data-testid="limit-save">Save</button>}</td>
            </tr>
            {invalid && <tr><td colSpan={4} className="field-error">A limit is a whole number above 0, or empty for none.</td></tr>}
            {save.error && <tr><td colSpan={4}><ApiErrorView error={toErrorInfo(save.error)} /></td></tr>}
        </>
    );
}
