// Spec 2.8: "confidence is the top probability rescaled so 0 is an even split across options and 1 is
// certainty", i.e. (n * p_max - 1) / (n - 1). The formatters feed it the raw (unrounded) distribution: rounding
// to hundredths would report 0.01 for an even three-way split (0.34 / 0.33 / 0.33) and 1 for p_max = 0.996,
// so the raw values are the only ones that give exactly 0 at an even split and 1 only at real certainty.

/** Distance from 0 or 1 below which floating-point noise is snapped away (n * (1 / n) need not be exactly 1). */
const snap = 1e-12;

export function confidence(probabilities: readonly number[]): number {
    const n = probabilities.length;
    if (n < 2) throw new RangeError(`confidence: needs at least two options, got ${n}`);
    let sum = 0;
    let top = 0;
    for (const probability of probabilities) {
        if (!Number.isFinite(probability) || probability < 0) throw new RangeError(`confidence: probabilities must be finite and non-negative, got ${probability}`);
        sum += probability;
        if (probability > top) top = probability;
    }
    if (!(sum > 0)) throw new RangeError("confidence: probabilities sum to zero");
    const value = (n * (top / sum) - 1) / (n - 1);
    if (value < snap) return 0;
    if (value > 1 - snap) return 1;
    return value;
}
