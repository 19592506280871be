/** `Retry-After` (seconds or an HTTP date) in ms, when a server says how long to wait. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
    if (header == null || header.trim() === "") return undefined;
    if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
    const date = Date.parse(header);
    return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
