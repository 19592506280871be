import type {NormalizedImage} from "../images.ts";
// Wire types of the two decision endpoints (spec 2.8, 2.9, 2.10, 2.3) and the one normalised request that
// both parsers produce for the engine, plus the engine result that both formatters turn back into wire JSON.

// ---- /v1/decisions request (2.9) ----

export type DecisionsInputTextPart = {type: "input_text", text: string};
export type DecisionsInputImagePart = {type: "input_image", image_url: string, detail?: "low" | "high" | "auto" | "original"};
export type DecisionsInputPart = DecisionsInputTextPart | DecisionsInputImagePart;
export type DecisionsInputMessage = {type?: "message", role: "user", content: string | DecisionsInputPart[]};

export type DecisionsChoiceValue = string | boolean;

export type DecisionsQuestion =
    | {type: "predicate", name?: string, instructions: string}
    | {type: "choice", name?: string, instructions: string, choices: Array<{value: DecisionsChoiceValue, description?: string}>}
    | {type: "score", name?: string, instructions: string, levels: Array<{label: string, description?: string}>};

export type DecisionsRequest = {
    model: "svc-1-decision",
    input: string | DecisionsInputMessage[],
    questions: DecisionsQuestion[],
    x_svc?: {explain?: boolean, max_soft_tokens?: number, label_mass?: boolean},
    safety_identifier?: string | null
};

// ---- /v1/decisions response (2.9, 2.3) ----

export type DecisionsAnswer =
    | {type: "predicate", name: string | null, probability: number}
    | {type: "choice", name: string | null, choice: DecisionsChoiceValue, probabilities: Array<{value: DecisionsChoiceValue, probability: number}>, confidence: number}
    | {type: "score", name: string | null, score: number, probabilities: Array<{value: number, label: string, probability: number}>, confidence: number};

export type DecisionsUsage = {
    input_tokens: number,
    input_tokens_details: {cached_tokens: 0, cache_write_tokens: 0},
    output_tokens: number,
    output_tokens_details: {reasoning_tokens: 0},
    total_tokens: number
};

export type DecisionsResponse = {
    model: "svc-1-decision",
    answers: DecisionsAnswer[],
    usage: DecisionsUsage,
    /**
     * Present when `x_svc.explain` or the local engine's `x_svc.label_mass` was true: one sentence, or one label
     * mass, per answer, in answer order (spec 2.10 orders explanations so; the label mass follows it).
     */
    x_svc?: {explanations?: string[], label_mass?: number[]}
};

// ---- /v1/systemone request (2.8, 2.10) ----

export type SystemoneQuestion =
    | {type: "noul", instructions?: string, criteria?: {true?: string | null, false?: string | null}}
    | {type: "choice", instructions?: string, criteria: Record<string, string | null>}
    | {type: "score", instructions?: string, criteria: string[]};

export type SystemoneRequest = {
    model: "svc-1-decision",
    state: unknown,
    questions: Record<string, SystemoneQuestion>,
    x_svc?: {explain?: boolean, images?: Record<string, string>, max_soft_tokens?: number, label_mass?: boolean}
};

// ---- /v1/systemone response (2.8) ----

export type SystemoneAnswer =
    | {type: "noul", noul: number}
    | {type: "choice", choice: string, probabilities: Record<string, number>, confidence: number}
    | {type: "score", score: number, probabilities: Record<string, number>, confidence: number, legend: Record<string, string>};

export type SystemoneResponse = {
    model: "svc-1-decision",
    answers: Record<string, SystemoneAnswer>,
    usage: {input_tokens: number, output_tokens: number},
    /** Present when `x_svc.explain` or the local engine's `x_svc.label_mass` was true: one value per question name. */
    x_svc?: {explanations?: Record<string, string>, label_mass?: Record<string, number>}
};

export type NormalizedOption = {
    /** What the answer reports: the choice value (type kept), the level index, or true / false for yes-no. */
    value: string | boolean | number,
    /** What the model reads for this option: the choice value as text, the level label / description, "yes" / "no". */
    text: string,
    description?: string
};

export type NormalizedQuestion = {
    /** Position among the request's questions (systemone: key order of `questions`). */
    index: number,
    /** The question's name: always set on /v1/systemone, only when supplied on /v1/decisions. */
    name?: string,
    /** yesno = `predicate` (decisions) / `noul` (systemone). */
    kind: "yesno" | "choice" | "score",
    instructions: string,
    /**
     * The answers, in the request's order; the engine returns one probability per option, aligned with this
     * list. yesno: [{value: true, text: "yes"}, {value: false, text: "no"}]; score: levels lowest first.
     */
    options: NormalizedOption[]
};

export type NormalizedDecisionRequest = {
    endpoint: "decisions" | "systemone",
    /** decisions: the text parts joined with blank lines; systemone: `state` as is when a string, else stableStringify(state). */
    text: string,
    images: NormalizedImage[],
    questions: NormalizedQuestion[],
    explain: boolean,
    /**
     * The local engine's `x_svc.label_mass` (not in spec 2.10, so the hosted service refuses it as an unknown
     * `x_svc` field and the app sends it to the local engine only): report each answer's label mass.
     */
    labelMass: boolean,
    /** `x_svc.max_soft_tokens` when sent (allowed values are not specified; any positive integer passes). */
    maxSoftTokens?: number
};

// ---- What the engine returns to the formatters ----

export type DecisionQuestionResult = {
    /** Raw (unrounded) probabilities aligned with `NormalizedQuestion.options`; normalised again if they do not sum to 1. */
    probabilities: readonly number[],
    /** One sentence; required for every question when the request asked for explanations. */
    explanation?: string,
    /**
     * The label mass, required for every question when the request asked for it: the share of the full-vocabulary
     * next-token probability that fell on the question's label tokens (all pooled spellings), 0 to 1. With several
     * option orders it is their mean; with nested lettered rounds it is the first round's (see LlamaDecisionEngine).
     */
    labelMass?: number
};

export type DecisionEngineResult = {
    /** One entry per `NormalizedDecisionRequest.questions`, same order. */
    answers: readonly DecisionQuestionResult[],
    usage: {inputTokens: number, outputTokens: number}
};
