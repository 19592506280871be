import type {DecisionsQuestion, DecisionsRequest, SystemoneQuestion, SystemoneRequest} from "../../protocol/decisions/types.ts";
import type {CalibrationSet} from "../evaluation/calibration/types.ts";

/**
 * A question set file: the questions of one decision endpoint, asked of every row of a sheet. `calibration`
 * (from client/evaluation) is applied to the answers of later runs; it is never sent to the server.
 */
export type QuestionSet =
    | {format: "decisions", questions: DecisionsQuestion[], x_svc?: DecisionsRequest["x_svc"], name?: string, description?: string, calibration?: CalibrationSet}
    | {format: "systemone", questions: Record<string, SystemoneQuestion>, x_svc?: SystemoneRequest["x_svc"], name?: string, description?: string, calibration?: CalibrationSet};

export type OptionValue = string | boolean | number;

/** One question as both endpoints have it, with the answers it can take. */
export type QuestionInfo = {
    /** Position in the set (systemone: key order). */
    index: number,
    /** The question's name; an unnamed /v1/decisions question is called `q<position from 1>`. */
    name: string,
    /** yesno = `predicate` (decisions) / `noul` (systemone). */
    kind: "yesno" | "choice" | "score",
    /** yesno: true then false; choice: the values as sent (types kept); score: level indexes, lowest first. */
    options: Array<{value: OptionValue, label: string}>
};

/** One answer reduced to what metrics, calibration and flat columns need. */
export type NormalizedAnswer = {
    /** Aligned with QuestionInfo.options; yesno: [P(true), P(false)]. */
    probabilities: number[],
    /** The server's pick (choice) and expected level (score), kept because it came from unrounded values. */
    choice?: OptionValue,
    score?: number,
    confidence?: number,
    explanation?: string,
    /** Set by applyCalibration: the probabilities are calibrated ones, not the server's. */
    calibrated?: true
};
