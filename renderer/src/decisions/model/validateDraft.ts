import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../../../protocol/decisions/parseSystemoneRequest.ts";
import {modelIds} from "../../../../protocol/limits.ts";
import {formatPath, ValidationError, type FieldPath} from "../../../../protocol/validation.ts";
import {toDecisionsQuestion} from "./toDecisionsQuestion.ts";
import {toQuestionSet} from "./toQuestionSet.ts";
import {toSystemoneQuestion} from "./toSystemoneQuestion.ts";
import type {DraftProblem, DraftQuestion, DraftSet} from "./types.ts";

/**
 * Every problem the server would report for this set, worded as the server words it: each question is run
 * through the endpoint's own request parser on its own (so each one shows its first problem, not only the
 * set's first), then the whole set (counts, duplicate names on /v1/decisions, x_svc). Two things the parsers
 * cannot see on /v1/systemone, where names and choice values are object keys that would silently collapse,
 * are checked here: duplicate question names and duplicate choice keys (a boolean true and "true" included).
 */
export function validateDraft(draft: DraftSet): DraftProblem[] {
    const problems: DraftProblem[] = [];
    const seen = new Set<string>();
    const add = (questionId: string | null, message: string) => {
        if (seen.has(message)) return;
        seen.add(message);
        problems.push({questionId, message});
    };
    const xSvc = draft.explain ? {x_svc: {explain: true}} : {};

    draft.questions.forEach((question, index) => {
        const error = draft.format === "decisions"
            ? parseError(() => parseDecisionsRequest({model: modelIds.decision, input: "-", questions: [toDecisionsQuestion(question)], ...xSvc}))
            : parseError(() => parseSystemoneRequest({model: modelIds.decision, state: "-", questions: Object.fromEntries([[question.name, toSystemoneQuestion(question)]]), ...xSvc}));
        // A question parsed alone sits at questions[0]; put its real position back into the path.
        if (error) add(question.id, draft.format === "decisions" && error.path[1] === 0 ? message(["questions", index, ...error.path.slice(2)], error.text) : message(error.path, error.text));
        if (draft.format === "systemone" && question.type === "choice") duplicateChoiceKeys(question).forEach((text) => add(question.id, text));
    });

    if (draft.format === "systemone") {
        const firstOwner = new Map<string, number>();
        draft.questions.forEach((question, index) => {
            const owner = firstOwner.get(question.name);
            if (owner === undefined) firstOwner.set(question.name, index);
            else add(question.id, `questions.${question.name}: questions ${owner + 1} and ${index + 1} are both named ${JSON.stringify(question.name)}; names must be unique`);
        });
    }

    const set = toQuestionSet(draft);
    const whole = set.format === "decisions"
        ? parseError(() => parseDecisionsRequest({model: modelIds.decision, input: "-", questions: set.questions, ...(set.x_svc ? {x_svc: set.x_svc} : {})}))
        : parseError(() => parseSystemoneRequest({model: modelIds.decision, state: "-", questions: set.questions, ...(set.x_svc ? {x_svc: set.x_svc} : {})}));
    if (whole) add(questionAt(draft, whole.path), message(whole.path, whole.text));
    return problems;
}

function duplicateChoiceKeys(question: DraftQuestion): string[] {
    const owner = new Map<string, number>();
    const messages: string[] = [];
    question.choices.forEach((choice, index) => {
        const key = String(choice.value);
        const first = owner.get(key);
        if (first === undefined) owner.set(key, index);
        else messages.push(`questions.${question.name}.criteria: choices ${first + 1} and ${index + 1} are both the key ${JSON.stringify(key)}; option names must be unique`);
    });
    return messages;
}

/** The question a whole-set error points into: `questions[i]...` (decisions) or `questions.<name>...` (systemone). */
function questionAt(draft: DraftSet, path: FieldPath): string | null {
    if (path[0] !== "questions" || path.length < 2) return null;
    const at = path[1];
    const question = typeof at === "number" ? draft.questions[at] : draft.questions.find((item) => item.name === at);
    return question?.id ?? null;
}

function parseError(parse: () => unknown): {path: FieldPath, text: string} | null {
    try {
        parse();
        return null;
    } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return {path: error.problems[0]?.path ?? error.path, text: error.problems[0]?.message ?? error.message};
    }
}

function message(path: FieldPath, text: string): string {
    return `${formatPath(path)}: ${text}`;
}
