/**
 * Two-sided exact McNemar test: with b and c the discordant pair counts, the chance under "both variants are
 * equally accurate" (each discordant pair a fair coin) of a split at least as uneven as the one seen.
 */
export function mcnemarExactP(b: number, c: number): number {
    const n = b + c;
    if (n === 0) return 1;
    const low = Math.min(b, c);
    // P(X <= low) for X ~ Binomial(n, 1/2), summed in log space so large n does not underflow term by term.
    let logTerm = -n * Math.LN2; // k = 0: C(n, 0) / 2^n
    let tail = Math.exp(logTerm);
    for (let k = 1; k <= low; k++) {
        logTerm += Math.log((n - k + 1) / k);
        tail += Math.exp(logTerm);
    }
    return Math.min(1, 2 * tail);
}
