/**
 * Reads the `Server-Timing` header (spec §4) into milliseconds: the `total` metric when there is one,
 * otherwise the first metric that carries `dur`. Null when the header is absent or has no duration.
 * Format (W3C Server Timing): `metric;dur=12.3;desc="x", other;dur=4`.
 */
export function parseServerTiming(header: string | null | undefined): number | null {
    if (!header) return null;
    let first: number | null = null;
    for (const metric of header.split(",")) {
        const [rawName, ...params] = metric.split(";");
        const name = rawName.trim().toLowerCase();
        if (!name) continue;
        const dur = readDuration(params);
        if (dur === null) continue;
        if (name === "total") return dur;
        first ??= dur;
    }
    return first;
}

function readDuration(params: string[]): number | null {
    for (const param of params) {
        const equals = param.indexOf("=");
        if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== "dur") continue;
        const value = Number(param.slice(equals + 1).trim().replace(/^"|"$/g, ""));
        return Number.isFinite(value) && value >= 0 ? value : null;
    }
    return null;
}
