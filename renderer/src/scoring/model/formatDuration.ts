/** Seconds as a short duration: `42 s`, `3 min 05 s`, `2 h 14 min`; `–` when unknown. */
export function formatDuration(seconds: number | null): string {
    if (seconds === null || !Number.isFinite(seconds)) return "–";
    const whole = Math.max(0, Math.round(seconds));
    if (whole < 60) return `${whole} s`;
    if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, "0")} s`;
    return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")} min`;
}
