import {clipProbability} from "../utils/probabilityFloor.ts";
import type {QuestionCalibration} from "./types.ts";

/** Applies a fitted calibration to one answer's probabilities (aligned with the question's options). */
export function calibrateProbabilities(calibration: Pick<QuestionCalibration, "method" | "temperature" | "bias">, probabilities: readonly number[]): number[] {
    if (calibration.method === "platt") {
        const p = clipProbability(probabilities[0]);
        const calibrated = sigmoid(Math.log(p / (1 - p)) / calibration.temperature + calibration.bias);
        return [calibrated, 1 - calibrated];
    }
    return softmax(probabilities.map((p) => Math.log(clipProbability(p)) / calibration.temperature));
}

export function sigmoid(x: number): number {
    return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

export function softmax(logits: readonly number[]): number[] {
    const top = Math.max(...logits);
    const exps = logits.map((logit) => Math.exp(logit - top));
    const sum = exps.reduce((a, b) => a + b, 0);
    return exps.map((value) => value / sum);
}
