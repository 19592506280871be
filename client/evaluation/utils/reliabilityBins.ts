import type {ReliabilityBin} from "../types.ts";

/**
 * Equal-width bins over [0, 1] of `predicted` (1.0 goes in the last bin) with the observed rate of `hit` in
 * each, and the expected calibration error: the bins' |observed - mean predicted| weighted by their share.
 */
export function reliabilityBins(predicted: readonly number[], hit: readonly boolean[], binCount: number): {reliability: ReliabilityBin[], ece: number} {
    const counts = new Array<number>(binCount).fill(0);
    const sums = new Array<number>(binCount).fill(0);
    const hits = new Array<number>(binCount).fill(0);
    predicted.forEach((probability, index) => {
        // The tiny nudge keeps 0.3 in [0.3, 0.4) although 0.3 * 10 is 2.9999999999999996 in floating point.
        const bin = Math.min(binCount - 1, Math.max(0, Math.floor(probability * binCount + 1e-9)));
        counts[bin]++;
        sums[bin] += probability;
        if (hit[index]) hits[bin]++;
    });
    const total = predicted.length;
    let ece = 0;
    const reliability = counts.map((count, bin): ReliabilityBin => {
        const meanPredicted = count === 0 ? null : sums[bin] / count;
        const observed = count === 0 ? null : hits[bin] / count;
        if (count > 0) ece += count / total * Math.abs(observed! - meanPredicted!);
        return {lower: bin / binCount, upper: (bin + 1) / binCount, count, meanPredicted, observed};
    });
    return {reliability, ece};
}
