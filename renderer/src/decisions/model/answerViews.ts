import {calibrateAnswer, parseQuestionSet, questionInfos, readAnswers, type StoredResponse, type OptionValue, type QuestionInfo, type QuestionSet} from "../../../../client/scoring/index.ts";

export type AnswerOptionView = {
    /** The value as sent: a choice value, a level index, or true / false. */
    value: OptionValue,
    /** What a chart shows: the choice value, `index · label` for a level, yes / no. */
    label: string,
    probability: number,
    /** The answer's pick: the chosen value, the most probable level, or the likelier of yes and no. */
    picked: boolean
};

/** One answer card's data, the same for both endpoints. */
export type AnswerView = {
    name: string,
    kind: QuestionInfo["kind"],
    options: AnswerOptionView[],
    /** Yes/no: P(true). */
    probability: number | null,
    choice: OptionValue | null,
    /** Score: the probability-weighted level index. */
    score: number | null,
    confidence: number | null,
    explanation: string | null,
    /** The numbers went through the calibration saved with the set. */
    calibrated: boolean,
    /** The server's own probabilities when calibrated ones are shown, aligned with `options`. */
    serverProbabilities: number[] | null
};

/** The answers of one response as cards, calibrated where the set carries a calibration for the question. */
export function answerViews(set: QuestionSet, response: StoredResponse): AnswerView[] {
    const infos = questionInfos(parseQuestionSet(set).normalized);
    const answers = readAnswers(set.format, infos, response);
    return infos.map((info, index) => {
        const server = answers[index];
        const fitted = set.calibration?.[info.name];
        const answer = fitted === undefined ? server : calibrateAnswer(info, fitted, server);
        const top = answer.probabilities.indexOf(Math.max(...answer.probabilities));
        const picked = (optionIndex: number) => info.kind === "choice" && answer.choice !== undefined
            ? info.options[optionIndex].value === answer.choice
            : optionIndex === top;
        return {
            name: info.name,
            kind: info.kind,
            options: info.options.map((option, optionIndex) => ({
                value: option.value,
                label: optionLabel(info, option),
                probability: answer.probabilities[optionIndex],
                picked: picked(optionIndex)
            })),
            probability: info.kind === "yesno" ? answer.probabilities[0] : null,
            choice: answer.choice ?? null,
            score: answer.score ?? null,
            confidence: answer.confidence ?? null,
            explanation: answer.explanation ?? null,
            calibrated: fitted !== undefined,
            serverProbabilities: fitted === undefined ? null : server.probabilities
        };
    });
}

function optionLabel(info: QuestionInfo, option: QuestionInfo["options"][number]): string {
    if (info.kind === "yesno") return option.value === true ? "yes" : "no";
    if (info.kind === "score") return `${option.value} · ${option.label}`;
    return String(option.value);
}
