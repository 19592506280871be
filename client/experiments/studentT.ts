import {normalQuantile} from "./normal.ts";

// Student's t distribution, for tests on few clusters: a clustered (sandwich) standard error from G clusters is
// compared with t on G − 1 degrees of freedom rather than the normal (Cameron & Miller 2015, "A Practitioner's Guide
// to Cluster-Robust Inference", §VI), which the normal makes anti-conservative below a few dozen clusters. The CDF goes
// through the regularized incomplete beta function, I_x(a, b) by its continued fraction (Lentz's method, as in
// Numerical Recipes §6.4), with ln Γ by Lanczos' approximation (g = 7, 9 terms).

const lanczos = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
    if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
    const shifted = x - 1;
    let sum = lanczos[0];
    for (let index = 1; index < lanczos.length; index++) sum += lanczos[index] / (shifted + index);
    const t = shifted + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The continued fraction of I_x(a, b), converging for x < (a + 1)/(a + b + 2). */
function betaFraction(x: number, a: number, b: number): number {
    const tiny = 1e-300;
    let c = 1, d = 1 - (a + b) * x / (a + 1);
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    let fraction = d;
    for (let m = 1; m <= 300; m++) {
        const even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        d = 1 + even * d;
        c = 1 + even / c;
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        c = Math.abs(c) < tiny ? tiny : c;
        fraction *= d * c;
        const odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + odd * d;
        c = 1 + odd / c;
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        c = Math.abs(c) < tiny ? tiny : c;
        const step = d * c;
        fraction *= step;
        if (Math.abs(step - 1) < 1e-15) break;
    }
    return fraction;
}

/** The regularized incomplete beta function I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
    return x < (a + 1) / (a + b + 2) ? front * betaFraction(x, a, b) / a : 1 - front * betaFraction(1 - x, b, a) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom (df > 0; Infinity is the normal's). */
export function tCdf(t: number, df: number): number {
    if (Number.isNaN(t)) return Number.NaN;
    const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
    return t > 0 ? 1 - tail : tail;
}

/** The t such that P(T ≤ t) = p, by bisection on the CDF from the normal's quantile outward. */
export function tQuantile(p: number, df: number): number {
    if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : Number.NaN;
    if (!Number.isFinite(df) || df > 1e7) return normalQuantile(p);
    if (p < 0.5) return -tQuantile(1 - p, df);
    let low = 0, high = Math.max(1, normalQuantile(p));
    while (tCdf(high, df) < p) high *= 2;
    for (let step = 0; step < 200 && high - low > 1e-13 * Math.max(1, high); step++) {
        const middle = (low + high) / 2;
        if (tCdf(middle, df) < p) low = middle;
        else high = middle;
    }
    return (low + high) / 2;
}
