/** A metric for display: 3 decimals, `–` when undefined on the data (e.g. precision with nothing predicted). */
export function formatMetric(value: number | null | undefined, digits = 3): string {
    return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(digits);
}
