// The question set draft the decision builder edits, and its conversion to the wire format of either endpoint.
import type {CalibrationSet, QuestionSet} from "../../../../client/scoring/index.ts";
import type {DecisionsQuestion, SystemoneQuestion} from "../../../../protocol/decisions/types.ts";
import {newId} from "../../ui/browser.ts";

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

/** `base`, or `base_2`, `base_3`... : the first that is not taken. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
    if (!taken.has(base)) return base;
    for (let suffix = 2; ; suffix++) {
        const name = `${base}_${suffix}`;
        if (!taken.has(name)) return name;
    }
}

/**
 * A level as one /v1/systemone criteria string. The model reads a level's label and description together on
 * both endpoints, so `label: description` keeps what it reads; splitLevelText reads it back.
 */
export function levelText(level: Pick<DraftLevel, "label" | "description">): string {
    if (level.description === "") return level.label;
    return level.label === "" ? level.description : `${level.label}: ${level.description}`;
}

/** The inverse of levelText: `label: description` at the first ": " (not at the start), else all label. */
export function splitLevelText(text: string): {label: string, description: string} {
    const at = text.indexOf(": ");
    return at > 0 ? {label: text.slice(0, at), description: text.slice(at + 2)} : {label: text, description: ""};
}

const defaults: Record<QuestionType, {name: string, instructions: string}> = {
    predicate: {name: "is_relevant", instructions: "Is the text relevant to the topic?"},
    choice: {name: "category", instructions: "Which category fits the text best?"},
    score: {name: "quality", instructions: "How well written is the text?"}
};

/** A new question of `type` with a name no other question has and options that pass the server's checks. */
export function newQuestion(type: QuestionType, existing: readonly DraftQuestion[]): DraftQuestion {
    const taken = new Set(existing.map((question) => question.name));
    return {
        id: newId(),
        type,
        name: uniqueName(defaults[type].name, taken),
        instructions: defaults[type].instructions,
        choices: [
            {id: newId(), value: "option_a", description: ""},
            {id: newId(), value: "option_b", description: ""}
        ],
        levels: ["poor", "fair", "good"].map((label) => ({id: newId(), label, description: ""})),
        trueDescription: "",
        falseDescription: ""
    };
}

/** A copy with fresh ids, named `<name>_copy` (or `_copy_2`...) so names stay unique. */
export function duplicateQuestion(question: DraftQuestion, existing: readonly DraftQuestion[]): DraftQuestion {
    const taken = new Set(existing.map((item) => item.name));
    return {
        ...question,
        id: newId(),
        name: question.name === "" ? "" : uniqueName(`${question.name}_copy`, taken),
        choices: question.choices.map((choice) => ({...choice, id: newId()})),
        levels: question.levels.map((level) => ({...level, id: newId()}))
    };
}

/** A draft question as /v1/decisions has it (spec 2.9); an empty name or description is left out. */
export function toDecisionsQuestion(question: DraftQuestion): DecisionsQuestion {
    const head = {type: question.type, ...(question.name === "" ? {} : {name: question.name}), instructions: question.instructions};
    if (question.type === "choice")
        return {...head, type: "choice", choices: question.choices.map((choice) => choice.description === "" ? {value: choice.value} : {value: choice.value, description: choice.description})};
    if (question.type === "score")
        return {...head, type: "score", levels: question.levels.map((level) => level.description === "" ? {label: level.label} : {label: level.label, description: level.description})};
    return {...head, type: "predicate"};
}

/**
 * A draft question as /v1/systemone has it (spec 2.8): `noul` with its true / false descriptions when set,
 * choice values as criteria keys (a boolean becomes "true" / "false"; a missing description is null), levels
 * as the criteria array (levelText). Two choices with the same key collapse here: validateDraft reports them.
 */
export function toSystemoneQuestion(question: DraftQuestion): SystemoneQuestion {
    if (question.type === "choice") {
        const criteria = new Map<string, string | null>();
        for (const choice of question.choices) criteria.set(String(choice.value), choice.description === "" ? null : choice.description);
        return {type: "choice", instructions: question.instructions, criteria: Object.fromEntries(criteria)};
    }
    if (question.type === "score") return {type: "score", instructions: question.instructions, criteria: question.levels.map(levelText)};
    const criteria = {
        ...(question.trueDescription === "" ? {} : {true: question.trueDescription}),
        ...(question.falseDescription === "" ? {} : {false: question.falseDescription})
    };
    return Object.keys(criteria).length === 0 ? {type: "noul", instructions: question.instructions} : {type: "noul", instructions: question.instructions, criteria};
}

/**
 * The draft as a question set file (client/questions), keys in a fixed order so saved files diff cleanly:
 * format, name, description, x_svc, questions, calibration. Empty name / description and an x_svc with
 * nothing to say are left out.
 */
export function toQuestionSet(draft: DraftSet): QuestionSet {
    const xSvc = {
        ...(draft.explain ? {explain: true} : {}),
        ...(draft.maxSoftTokens === null ? {} : {max_soft_tokens: draft.maxSoftTokens})
    };
    const head = {
        ...(draft.name === "" ? {} : {name: draft.name}),
        ...(draft.description === "" ? {} : {description: draft.description}),
        ...(Object.keys(xSvc).length === 0 ? {} : {x_svc: xSvc})
    };
    const calibration = draft.calibration !== null && Object.keys(draft.calibration).length > 0 ? {calibration: draft.calibration} : {};
    if (draft.format === "decisions")
        return {format: "decisions", ...head, questions: draft.questions.map(toDecisionsQuestion), ...calibration};
    // The first question of a name wins (validateDraft reports the others); fromEntries makes even a
    // question named "__proto__" an own key.
    const byName = new Map<string, SystemoneQuestion>();
    for (const question of draft.questions) if (!byName.has(question.name)) byName.set(question.name, toSystemoneQuestion(question));
    const questions: Record<string, SystemoneQuestion> = Object.fromEntries(byName);
    return {format: "systemone", ...head, questions, ...calibration};
}

/** The file a question set is saved as: toQuestionSet's fixed key order, 2-space indent, a final newline. */
export function formatQuestionSetFile(draft: DraftSet): string {
    return `${JSON.stringify(toQuestionSet(draft), null, 2)}\n`;
}

/**
 * What the draft holds that the selected format writes differently or not at all, one line per question
 * concerned, so a format switch never drops something silently (the draft keeps it for a switch back).
 */
export function conversionNotes(draft: DraftSet): string[] {
    const notes: string[] = [];
    draft.questions.forEach((question, index) => {
        const label = question.name === "" ? `question ${index + 1}` : question.name;
        if (draft.format === "decisions") {
            if (question.type === "predicate" && (question.trueDescription !== "" || question.falseDescription !== ""))
                notes.push(`${label}: /v1/decisions has no place for what true and false mean; kept here and sent on /v1/systemone only.`);
            return;
        }
        if (question.type === "choice" && question.choices.some((choice) => typeof choice.value === "boolean"))
            notes.push(`${label}: boolean values are sent as the keys "true" / "false" (their type comes back on /v1/decisions).`);
        if (question.type === "score" && question.levels.some((level) => level.description !== ""))
            notes.push(`${label}: each level is sent as one criteria string, "label: description".`);
    });
    return notes;
}
