import {logSumExp} from "./logSumExp.ts";

// Probabilities over a question's answer labels only (never the whole vocabulary): the model's mass on other
// tokens is renormalised away, as the decision endpoints report a distribution over the allowed answers.

/** Natural-log probabilities of `logits / temperature`; stays exact where the probabilities underflow. */
export function logSoftmax(logits: readonly number[], temperature = 1): number[] {
    if (logits.length === 0) throw new RangeError("softmax: no logits");
    if (!(temperature > 0) || !Number.isFinite(temperature)) throw new RangeError(`softmax: temperature must be positive, got ${temperature}`);
    const scaled = logits.map((logit) => logit / temperature);
    const norm = logSumExp(scaled);
    if (!Number.isFinite(norm)) throw new RangeError("softmax: logits must hold at least one finite value and no +Infinity");
    return scaled.map((value) => value - norm);
}

export function softmax(logits: readonly number[], temperature = 1): number[] {
    return logSoftmax(logits, temperature).map(Math.exp);
}
