/** Time left as people say it: "4 s", "1 min 20 s", "2 h 5 min"; under a second is "< 1 s". */
export function formatEta(seconds: number): string {
    if (!Number.isFinite(seconds) || seconds < 0) return "unknown";
    if (seconds < 1) return "< 1 s";
    const total = Math.round(seconds);
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const rest = total % 60;
    if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
    if (minutes > 0) return rest > 0 ? `${minutes} min ${rest} s` : `${minutes} min`;
    return `${rest} s`;
}
