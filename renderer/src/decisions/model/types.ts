import type {CalibrationSet} from "../../../../client/scoring/index.ts";

// The question set as the builder edits it. It is format-agnostic: it holds everything either endpoint can say
// (true / false descriptions of a predicate, boolean choice values, level labels and descriptions), so switching
// between /v1/decisions and /v1/systemone and back loses nothing; toWireQuestions writes what a format carries.

export type QuestionFormat = "decisions" | "systemone";

/** `predicate` on /v1/decisions is `noul` on /v1/systemone. */
export type QuestionType = "predicate" | "choice" | "score";

export type DraftChoice = {
    id: string,
    /** /v1/decisions keeps the type; /v1/systemone sends it as the key `String(value)`. */
    value: string | boolean,
    /** Empty: none (decisions leaves `description` out; systemone sends null). */
    description: string
};

export type DraftLevel = {id: string, label: string, description: string};

export type DraftQuestion = {
    id: string,
    type: QuestionType,
    /** Empty on /v1/decisions: the question is sent without a name. /v1/systemone needs one (the key). */
    name: string,
    instructions: string,
    /** Kept when the type changes, so switching a question to another type and back keeps its options. */
    choices: DraftChoice[],
    levels: DraftLevel[],
    /** What true and false mean (systemone `noul` criteria); /v1/decisions has no place for them. */
    trueDescription: string,
    falseDescription: string
};

export type DraftSet = {
    format: QuestionFormat,
    name: string,
    description: string,
    /** `x_svc.explain`: one sentence per answer; the question limit drops to 64. */
    explain: boolean,
    /** `x_svc.max_soft_tokens`; null when not sent. */
    maxSoftTokens: number | null,
    questions: DraftQuestion[],
    /** Fitted on the evaluation screen and applied to later runs; never sent to the server. */
    calibration: CalibrationSet | null
};

/** A problem of the set as the server would report it; `questionId` null for the whole set. */
export type DraftProblem = {questionId: string | null, message: string};
