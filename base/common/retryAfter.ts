/**
 * Reads `Retry-After` into seconds from now: delta-seconds (`1`, `2.5`) or an HTTP date. Null when
 * absent or unreadable; a date in the past gives 0. `now` is injectable so tests need no clock.
 */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | null {
    if (header == null) return null;
    const text = header.trim();
    if (!text) return null;
    if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
    // HTTP dates always name a weekday or month; a bare number that failed above is junk, not a date.
    if (!/[a-z]/i.test(text)) return null;
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    return Math.max(0, (at - now) / 1000);
}
