import {confidence} from "../../../protocol/decisions/distributions.ts";
import type {NormalizedAnswer, QuestionInfo} from "../../questions/types.ts";
import {argmax} from "../evaluateMulticlass.ts";
import {calibrateProbabilities} from "./calibrateProbabilities.ts";
import type {QuestionCalibration} from "./types.ts";

/**
 * An answer with calibrated probabilities and everything derived from them recomputed (choice, expected
 * score, confidence as in spec 2.8), always marked `calibrated: true`. Explanations are kept as they are.
 */
export function calibrateAnswer(info: QuestionInfo, calibration: QuestionCalibration, answer: NormalizedAnswer): NormalizedAnswer {
    if (calibration.kind !== info.kind || (calibration.method === "platt") !== (info.kind === "yesno"))
        throw new RangeError(`calibration of ${JSON.stringify(calibration.question)} (${calibration.kind}, ${calibration.method}) does not fit ${info.kind} question ${JSON.stringify(info.name)}`);
    const probabilities = calibrateProbabilities(calibration, answer.probabilities);
    const calibrated: NormalizedAnswer = {probabilities, calibrated: true};
    if (answer.explanation !== undefined) calibrated.explanation = answer.explanation;
    if (info.kind === "choice") {
        calibrated.choice = info.options[argmax(probabilities)].value;
        calibrated.confidence = confidence(probabilities);
    } else if (info.kind === "score") {
        calibrated.score = probabilities.reduce((sum, probability, level) => sum + probability * level, 0);
        calibrated.confidence = confidence(probabilities);
    }
    return calibrated;
}
