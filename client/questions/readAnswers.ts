import type {DecisionsAnswer, SystemoneAnswer} from "../../protocol/decisions/types.ts";
import type {NormalizedAnswer, OptionValue, QuestionInfo} from "./types.ts";

/** What a scoring job keeps of a response: the answers and explanations as the server sent them. */
export type StoredResponse = {answers: unknown, x_svc?: {explanations?: unknown}};

/**
 * The answers of one response, one per question of `infos` (same order). /v1/decisions answers come in
 * question order; /v1/systemone answers are keyed by name. Throws on a response that does not fit the set
 * (a question missing, an unknown option), which would otherwise write wrong numbers into a column.
 */
export function readAnswers(format: "decisions" | "systemone", infos: readonly QuestionInfo[], response: StoredResponse): NormalizedAnswer[] {
    const explanations = response.x_svc?.explanations;
    if (format === "decisions") {
        const answers = response.answers as DecisionsAnswer[];
        if (!Array.isArray(answers) || answers.length !== infos.length) throw new TypeError(`expected ${infos.length} answers, got ${Array.isArray(answers) ? answers.length : typeof answers}`);
        return infos.map((info, index) => withExplanation(fromDecisions(info, answers[index]), Array.isArray(explanations) ? explanations[index] : undefined));
    }
    const answers = response.answers as Record<string, SystemoneAnswer>;
    if (answers === null || typeof answers !== "object") throw new TypeError("response has no answers object");
    return infos.map((info) => {
        const answer = answers[info.name];
        if (answer === undefined) throw new TypeError(`response has no answer for ${JSON.stringify(info.name)}`);
        const text = explanations !== null && typeof explanations === "object" ? (explanations as Record<string, unknown>)[info.name] : undefined;
        return withExplanation(fromSystemone(info, answer), text);
    });
}

function fromDecisions(info: QuestionInfo, answer: DecisionsAnswer): NormalizedAnswer {
    if (info.kind === "yesno" && answer.type === "predicate") return {probabilities: [answer.probability, 1 - answer.probability]};
    if (info.kind === "choice" && answer.type === "choice") {
        const probabilities = info.options.map((option) => find(answer.probabilities.find((entry) => entry.value === option.value)?.probability, info, option.value));
        return {probabilities, choice: answer.choice, confidence: answer.confidence};
    }
    if (info.kind === "score" && answer.type === "score") {
        const probabilities = info.options.map((option) => find(answer.probabilities.find((entry) => entry.value === option.value)?.probability, info, option.value));
        return {probabilities, score: answer.score, confidence: answer.confidence};
    }
    throw new TypeError(`answer of type ${JSON.stringify((answer as {type?: unknown})?.type)} for ${info.kind} question ${JSON.stringify(info.name)}`);
}

function fromSystemone(info: QuestionInfo, answer: SystemoneAnswer): NormalizedAnswer {
    if (info.kind === "yesno" && answer.type === "noul") return {probabilities: [answer.noul, 1 - answer.noul]};
    if ((info.kind === "choice" && answer.type === "choice") || (info.kind === "score" && answer.type === "score")) {
        const probabilities = info.options.map((option) => find(answer.probabilities[String(option.value)], info, option.value));
        return answer.type === "choice"
            ? {probabilities, choice: answer.choice, confidence: answer.confidence}
            : {probabilities, score: answer.score, confidence: answer.confidence};
    }
    throw new TypeError(`answer of type ${JSON.stringify((answer as {type?: unknown})?.type)} for ${info.kind} question ${JSON.stringify(info.name)}`);
}

function find(probability: number | undefined, info: QuestionInfo, value: OptionValue): number {
    if (typeof probability !== "number") throw new TypeError(`answer to ${JSON.stringify(info.name)} has no probability for ${JSON.stringify(value)}`);
    return probability;
}

function withExplanation(answer: NormalizedAnswer, explanation: unknown): NormalizedAnswer {
    return typeof explanation === "string" ? {...answer, explanation} : answer;
}
