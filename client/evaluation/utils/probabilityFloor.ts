// Answers carry probabilities rounded to hundredths (spec 2.8), so a 0 means "below 0.005", not impossible.
// Log loss and logits clip to [floor, 1 - floor]: one confident miss then costs ln(200) = 5.3, not infinity.
export const probabilityFloor = 0.005;

export function clipProbability(probability: number): number {
    return Math.min(1 - probabilityFloor, Math.max(probabilityFloor, probability));
}
