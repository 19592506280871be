/** Exponential restart delay: base, 2x base, 4x base ... capped at `maxMs`. `attempt` counts from 0. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
    return Math.min(maxMs, baseMs * 2 ** attempt);
}
