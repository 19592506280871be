// Every problem of a question set draft, found by the server's own request parsers and numbered as the builder shows
// the set: cards from #1, choices from 1, levels from 0 (a level's number is its score).
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../../../protocol/decisions/parseSystemoneRequest.ts";
import type {DecisionsQuestion, SystemoneQuestion} from "../../../../protocol/decisions/types.ts";
import {limits, modelIds} from "../../../../protocol/limits.ts";
import {formatPath, ValidationError, type FieldPath} from "../../../../protocol/validation.ts";
import {toDecisionsQuestion, toSystemoneQuestion, type DraftQuestion, type DraftSet} from "./draft.ts";

/** The part of a question a problem is about; `item` is a choice's or a level's id. */
export type ProblemField = "type" | "name" | "instructions" | "choices" | "levels" | "criteria";

/** A problem of the set, located as the builder shows it and worded as the server words it. */
export type DraftProblem = {
    /** The question at fault; null for the whole set (its count, x_svc). */
    questionId: string | null,
    /** The question's card number, from 1; null for the whole set. */
    questionNumber: number | null,
    field: ProblemField | null,
    /** The choice or level at fault (its draft id), when one is. */
    itemId: string | null,
    /** Where it is in the builder's numbering, e.g. `#2 · choice 3`, `#1 · name`, `set`. */
    where: string,
    /** `where: what`, with the server's 0-based references renumbered the same way. */
    message: string,
    /** The field as the server names it (0-based indexes, or names on /v1/systemone), and its words. */
    serverMessage: string
};

/** The key of the element that shows a problem's field: its card, the field, or the choice or level row. */
export function problemFieldKey(problem: Pick<DraftProblem, "questionId" | "field" | "itemId">): string {
    if (problem.questionId === null) return "set";
    if (problem.itemId !== null) return `${problem.questionId}:item:${problem.itemId}`;
    return problem.field === null ? problem.questionId : `${problem.questionId}:${problem.field}`;
}

type Fault = {path: FieldPath, text: string};

/** A request the parser must read: the first fault it reports, or null. */
function firstFault(parse: () => unknown): Fault | null {
    try {
        parse();
        return null;
    } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return {path: error.problems[0]?.path ?? error.path, text: error.problems[0]?.message ?? error.message};
    }
}

// The parsers stop at a request's first fault. To find every fault, each one found is recorded, then the part at
// fault is replaced by one the parser accepts (a unique filler value, a valid count, no name), and the request is
// read again. Replacing, not removing, keeps every other item at its index, and so at the number the builder shows.
const filler = (index: number) => `\u0000filler-${index}`;
/** More rounds than any set can need: every item of a question could be at fault once, plus its own fields. */
const maxRounds = (question: DraftQuestion) => question.choices.length + question.levels.length + 8;

/**
 * Every problem the server would report for this set: each question's faults (every duplicate choice, an empty name,
 * a count out of range...), then the set's (duplicate names, the question count, x_svc). On /v1/systemone, where
 * names and choice values are object keys that would silently collapse, duplicate names and choice keys are checked
 * here.
 */
export function validateDraft(draft: DraftSet): DraftProblem[] {
    const problems = draft.format === "decisions" ? validateDecisions(draft) : validateSystemone(draft);
    // The set's own problems first, then question by question (a sort keeps the order within a question).
    return problems.sort((a, b) => (a.questionNumber ?? 0) - (b.questionNumber ?? 0));
}

const xSvcOf = (draft: DraftSet) => draft.explain || draft.maxSoftTokens !== null
    ? {x_svc: {...(draft.explain ? {explain: true} : {}), ...(draft.maxSoftTokens === null ? {} : {max_soft_tokens: draft.maxSoftTokens})}}
    : {};

function validateDecisions(draft: DraftSet): DraftProblem[] {
    const problems: DraftProblem[] = [];
    // Each question alone (at questions[0]), with the explain limit of the set; x_svc's own faults are the set's.
    const wires = draft.questions.map((question, index) => {
        const wire = structuredClone(toDecisionsQuestion(question)) as DecisionsQuestion & {choices?: Array<{value: unknown}>, levels?: unknown[], name?: string};
        for (let round = 0; round < maxRounds(question); round++) {
            const fault = firstFault(() => parseDecisionsRequest({model: modelIds.decision, input: "-", questions: [wire]}));
            if (fault === null || fault.path[0] !== "questions" || fault.path[1] !== 0) break;
            const at: FieldPath = ["questions", index, ...fault.path.slice(2)];
            problems.push(locate(draft, at, fault.text));
            if (!repairDecisions(wire, fault.path.slice(2), round)) break;
        }
        return wire;
    });
    // The set: duplicate names, the question count, x_svc; each question already as the parser accepts it.
    const xSvc = xSvcOf(draft);
    for (let round = 0; round < draft.questions.length + 4; round++) {
        const fault = firstFault(() => parseDecisionsRequest({model: modelIds.decision, input: "-", questions: wires, ...xSvc}));
        if (fault === null) break;
        problems.push(locate(draft, fault.path, fault.text));
        const [top, index, field] = fault.path;
        if (top === "questions" && typeof index === "number" && field === "name") delete wires[index].name;
        else if (top === "x_svc") delete xSvc.x_svc;
        else break;
    }
    return problems;
}

/** Makes the part of a lone /v1/decisions question at `path` acceptable; false when it cannot. */
function repairDecisions(wire: {choices?: Array<{value: unknown}>, levels?: unknown[], name?: string, instructions?: string}, path: FieldPath, round: number): boolean {
    const [field, index] = path;
    if (field === "name") delete wire.name;
    else if (field === "instructions") wire.instructions = "";
    else if (field === "choices" && typeof index === "number" && wire.choices) wire.choices[index] = {value: filler(round)};
    else if (field === "choices" && wire.choices) wire.choices = fitCount(wire.choices, limits.optionsPerChoice, (at) => ({value: filler(at)}));
    else if (field === "levels" && typeof index === "number" && wire.levels) wire.levels[index] = {label: ""};
    else if (field === "levels" && wire.levels) wire.levels = fitCount(wire.levels, limits.levelsPerScore, () => ({label: ""}));
    else return false;
    return true;
}

/** The list cut to `max`, or two fillers when it holds fewer than two. */
function fitCount<T>(items: T[], max: number, make: (index: number) => T): T[] {
    return items.length < 2 ? [make(0), make(1)] : items.slice(0, max);
}

function validateSystemone(draft: DraftSet): DraftProblem[] {
    const problems: DraftProblem[] = [];
    // Names are the questions' keys: a duplicate or empty one is reported here, and the question is then read under
    // a filler name, so that its own faults show too.
    const firstOwner = new Map<string, number>();
    const keys = draft.questions.map((question, index) => {
        const owner = firstOwner.get(question.name);
        if (question.name === "") {
            problems.push(at(draft, index, "name", null, "question names must not be empty", `questions.: question names must not be empty`));
            return filler(index);
        }
        if (owner !== undefined) {
            const text = `#${owner + 1} and #${index + 1} are both named ${JSON.stringify(question.name)}; names must be unique`;
            problems.push(at(draft, index, "name", null, text, `questions.${question.name}: questions ${owner} and ${index} (from 0) are both named ${JSON.stringify(question.name)}`));
            return filler(index);
        }
        firstOwner.set(question.name, index);
        return question.name;
    });
    const wires: Record<string, SystemoneQuestion> = {};
    draft.questions.forEach((question, index) => {
        const wire = structuredClone(toSystemoneQuestion(question)) as SystemoneQuestion & {criteria?: unknown};
        if (question.type === "choice") wire.criteria = choiceCriteria(draft, question, index, problems);
        for (let round = 0; round < maxRounds(question); round++) {
            const fault = firstFault(() => parseSystemoneRequest({model: modelIds.decision, state: "-", questions: {[keys[index]]: wire}}));
            if (fault === null || fault.path[0] !== "questions") break;
            const rest = fault.path.slice(2);
            problems.push(locate(draft, ["questions", index, ...rest], fault.text, ["questions", question.name, ...rest]));
            if (!repairSystemone(wire, rest, round)) break;
        }
        wires[keys[index]] = wire;
    });
    const fault = firstFault(() => parseSystemoneRequest({model: modelIds.decision, state: "-", questions: wires, ...xSvcOf(draft)}));
    if (fault !== null && (fault.path[0] !== "questions" || fault.path.length === 1)) problems.push(locate(draft, fault.path, fault.text));
    return problems;
}

/**
 * A choice question's criteria as /v1/systemone keys: each value as its key, or a filler where its key is one an
 * earlier choice already has (true and "true" included), reported here since the object would silently collapse.
 */
function choiceCriteria(draft: DraftSet, question: DraftQuestion, index: number, problems: DraftProblem[]): Record<string, string | null> {
    const owner = new Map<string, number>();
    return Object.fromEntries(question.choices.map((choice, choiceIndex) => {
        const key = String(choice.value);
        const first = owner.get(key);
        if (first === undefined) {
            owner.set(key, choiceIndex);
            return [key, choice.description === "" ? null : choice.description];
        }
        problems.push(at(draft, index, "choices", choice.id, `choices ${first + 1} and ${choiceIndex + 1} are both the key ${JSON.stringify(key)}; option names must be unique`,
            `questions.${question.name}.criteria: choices ${first} and ${choiceIndex} (from 0) are both the key ${JSON.stringify(key)}`));
        return [filler(choiceIndex), null];
    }));
}

/** Makes the part of a lone /v1/systemone question at `path` (after its name) acceptable; false when it cannot. */
function repairSystemone(wire: {criteria?: unknown, instructions?: string}, path: FieldPath, round: number): boolean {
    const [field, key] = path;
    if (field === "instructions") wire.instructions = "";
    else if (field !== "criteria") return false;
    else if (Array.isArray(wire.criteria)) {
        if (typeof key === "number") wire.criteria[key] = "";
        else wire.criteria = fitCount(wire.criteria, limits.levelsPerScore, () => "");
    } else if (wire.criteria !== null && typeof wire.criteria === "object") {
        const criteria = {...wire.criteria as Record<string, unknown>};
        if (typeof key === "string") {
            delete criteria[key];
            criteria[filler(round)] = null;
            wire.criteria = criteria;
        } else {
            const entries = Object.entries(criteria);
            wire.criteria = Object.fromEntries(entries.length < 2 ? [[filler(0), null], [filler(1), null]] : entries.slice(0, limits.optionsPerChoice));
        }
    } else return false;
    return true;
}

/**
 * The problem at a server path of the draft's own shape (`questions[i]...` with i the question's index), with the
 * server's words; `serverPath` is the path the server itself would name when it differs (names on /v1/systemone).
 */
function locate(draft: DraftSet, path: FieldPath, text: string, serverPath: FieldPath = path): DraftProblem {
    const serverMessage = `${formatPath(serverPath)}: ${text}`;
    const [top, index, field, item] = path;
    if (top !== "questions" || typeof index !== "number" || draft.questions[index] === undefined) {
        const where = path.length === 0 ? "set" : `set · ${formatPath(path)}`;
        return {questionId: null, questionNumber: null, field: null, itemId: null, where, message: `${where}: ${renumber(text)}`, serverMessage};
    }
    const question = draft.questions[index];
    const known = field === "name" || field === "instructions" || field === "type" || field === "choices" || field === "levels" || field === "criteria" ? field : null;
    // /v1/systemone names a choice by its key and a level by its index under `criteria`.
    const list: ProblemField | null = known === "criteria" ? (question.type === "choice" ? "choices" : question.type === "score" ? "levels" : "criteria") : known;
    let itemId: string | null = null;
    if (list === "choices" && item !== undefined) {
        const found = typeof item === "number" ? question.choices[item] : question.choices.find((choice) => String(choice.value) === item);
        itemId = found?.id ?? null;
    }
    if (list === "levels" && typeof item === "number") itemId = question.levels[item]?.id ?? null;
    return {...at(draft, index, list, itemId, text, serverMessage), serverMessage};
}

/** A problem of question `index` (0-based) at `field` / `itemId`, where and what in the builder's numbering. */
function at(draft: DraftSet, index: number, field: ProblemField | null, itemId: string | null, text: string, serverMessage: string): DraftProblem {
    const question = draft.questions[index];
    const parts = [`#${index + 1}`];
    const choice = question.choices.findIndex((item) => item.id === itemId);
    const level = question.levels.findIndex((item) => item.id === itemId);
    if (field === "choices" && choice >= 0) parts.push(`choice ${choice + 1}`);
    else if (field === "levels" && level >= 0) parts.push(`level ${level}`);
    else if (field !== null) parts.push(field === "criteria" ? "true / false meanings" : field);
    const where = parts.join(" · ");
    return {questionId: question.id, questionNumber: index + 1, field, itemId, where, message: `${where}: ${renumber(text)}`, serverMessage};
}

/** The server's 0-based references in a message, as the builder numbers them: questions[1] is #2, choices[0] choice 1. */
function renumber(text: string): string {
    return text
        .replace(/questions\[(\d+)\]/g, (_match, index: string) => `#${Number(index) + 1}`)
        .replace(/choices\[(\d+)\]/g, (_match, index: string) => `choice ${Number(index) + 1}`)
        .replace(/levels\[(\d+)\]/g, (_match, index: string) => `level ${index}`);
}
