import type {DecisionsAnswer, DecisionsQuestion} from "../../protocol/decisions/types.ts";
import {calibrateProbabilities} from "../scoring/calibration.ts";
import type {Check} from "./types.ts";

// The decision question a grader check asks about a reply, and the score its answer gives: yes/no (P(yes)), a choice
// over labels (the probability of the passing labels: OpenAI's label_model graders read so, with a probability in
// place of one sampled label), or a score over numeric levels (the expected level, scaled to 0..1 over the levels'
// range: score_model graders). The check passes when that score, through the grader's calibration when it carries
// one, reaches its threshold.

export type Grader = Extract<Check, {kind: "grader"}>;

/** What is wrong with a grader's labels or levels (field and message), or null. */
export function graderShapeProblem(grader: Grader): {field: string, message: string} | null {
    if (grader.labels !== undefined && grader.levels !== undefined) return {field: "levels", message: "a grader asks a choice (labels) or a score (levels) question, not both"};
    if (grader.labels !== undefined) {
        if (grader.labels.length < 2 || new Set(grader.labels).size !== grader.labels.length) return {field: "labels", message: "needs two or more different labels"};
        const passing = grader.passing ?? [];
        if (passing.length === 0) return {field: "passing", message: "name the labels that pass (one or more of labels)"};
        const unknown = passing.find((label) => !grader.labels!.includes(label));
        if (unknown !== undefined) return {field: "passing", message: `${JSON.stringify(unknown)} is none of the labels`};
    } else if (grader.passing !== undefined) return {field: "passing", message: "passing labels need labels"};
    if (grader.levels !== undefined && (grader.levels.length < 2 || grader.levels.some((level, index) => index > 0 && !(level > grader.levels![index - 1]))))
        return {field: "levels", message: "needs two or more numbers, lowest first, each higher than the one before"};
    return null;
}

/** The question the grader asks. */
export function graderQuestion(grader: Grader): DecisionsQuestion {
    if (grader.labels !== undefined) return {type: "choice", name: grader.name, instructions: grader.question, choices: grader.labels.map((value) => ({value}))};
    if (grader.levels !== undefined) return {type: "score", name: grader.name, instructions: grader.question, levels: grader.levels.map((level) => ({label: String(level)}))};
    return {type: "predicate", name: grader.name, instructions: grader.question};
}

/** The answer's score in 0..1, or an Error when the answer is not of the question's type. */
export function graderScore(grader: Grader, answer: DecisionsAnswer | undefined): number {
    const expected = graderQuestion(grader).type;
    if (answer?.type !== expected) throw new Error(`the grader's answer is not a ${expected} answer`);
    if (answer.type === "predicate") return answer.probability;
    if (answer.type === "choice") {
        const passing = new Set(grader.passing ?? []);
        return Math.min(1, answer.probabilities.reduce((sum, item) => sum + (passing.has(String(item.value)) ? item.probability : 0), 0));
    }
    const levels = grader.levels!;
    const low = levels[0], high = levels[levels.length - 1];
    const mean = answer.probabilities.reduce((sum, item) => sum + item.probability * Number(item.label), 0);
    return Math.max(0, Math.min(1, (mean - low) / (high - low)));
}

/**
 * The grader's score through the calibration it carries (graderCalibration.ts: Platt scaling on the logit, scores
 * clipped to [0.005, 0.995] first, as answers are); the score itself when it carries none.
 */
export function calibratedGraderScore(grader: Pick<Grader, "calibration">, score: number): number {
    return grader.calibration === undefined ? score : calibrateProbabilities(grader.calibration, [score, 1 - score])[0];
}

/** The grader's score, described for a result's detail. */
export function graderDetail(grader: Grader, score: number): string | undefined {
    if (grader.labels !== undefined) return `P(${(grader.passing ?? []).join(" or ")}) = ${score.toFixed(3)}`;
    if (grader.levels !== undefined) {
        const levels = grader.levels;
        return `expected score ${(levels[0] + score * (levels[levels.length - 1] - levels[0])).toFixed(3)} on ${levels[0]}..${levels[levels.length - 1]}`;
    }
    return undefined;
}
