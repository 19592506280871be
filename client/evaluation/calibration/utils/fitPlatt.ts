import {sigmoid} from "../calibrateProbabilities.ts";

// Platt scaling on the logit: P' = sigmoid(a * z + b), z = logit(P), fitted by Newton's method on the log loss.
// As in Platt (1999) the 0/1 targets are smoothed to (N+ + 1) / (N+ + 2) and 1 / (N- + 2): on rows the model
// already separates perfectly the unsmoothed optimum is a = infinity, which would turn every later answer to 0 or 1.

export type PlattFit = {a: number, b: number};

export function fitPlatt(logits: readonly number[], labels: readonly boolean[]): PlattFit {
    const positives = labels.filter(Boolean).length;
    const negatives = labels.length - positives;
    const high = (positives + 1) / (positives + 2), low = 1 / (negatives + 2);
    const targets = labels.map((label) => label ? high : low);
    const loss = (a: number, b: number) => {
        let sum = 0;
        logits.forEach((z, index) => {
            const x = a * z + b;
            // -[t log s(x) + (1 - t) log(1 - s(x))] = t * softplus(-x) + (1 - t) * softplus(x)
            sum += targets[index] * softplus(-x) + (1 - targets[index]) * softplus(x);
        });
        return sum;
    };
    let a = 1, b = 0, current = loss(a, b);
    for (let iteration = 0; iteration < 100; iteration++) {
        let ga = 0, gb = 0, haa = 0, hab = 0, hbb = 0;
        logits.forEach((z, index) => {
            const s = sigmoid(a * z + b);
            const residual = s - targets[index], weight = s * (1 - s);
            ga += residual * z;
            gb += residual;
            haa += weight * z * z;
            hab += weight * z;
            hbb += weight;
        });
        if (Math.hypot(ga, gb) < 1e-10 * logits.length) break;
        const determinant = haa * hbb - hab * hab;
        // Newton's direction; plain gradient descent when the Hessian is singular (all logits equal).
        const newton = determinant > 1e-12 * Math.max(1, haa * hbb);
        const da = newton ? -(hbb * ga - hab * gb) / determinant : -ga;
        const db = newton ? -(haa * gb - hab * ga) / determinant : -gb;
        const slope = ga * da + gb * db;
        let improved = false;
        for (let step = 1, halvings = 0; halvings < 60; halvings++, step /= 2) {
            const na = a + step * da, nb = b + step * db;
            // a stays positive: a calibration may soften or sharpen the answers but never turn them around.
            if (na <= 1e-6) continue;
            const next = loss(na, nb);
            if (next <= current + 1e-4 * step * slope) {
                improved = current - next > 1e-14 * Math.max(1, current);
                a = na;
                b = nb;
                current = next;
                break;
            }
        }
        if (!improved) break;
    }
    return {a, b};
}

function softplus(x: number): number {
    return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
}
