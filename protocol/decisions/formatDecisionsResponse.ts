import {modelIds} from "../limits.ts";
import type {DecisionEngineResult, DecisionsAnswer, DecisionsResponse, NormalizedDecisionRequest} from "./types.ts";
import {collectExplanations} from "./utils/collectExplanations.ts";
import {summarizeDistribution} from "./utils/summarizeDistribution.ts";

/** The `/v1/decisions` body (spec 2.9, 2.3) from the engine's raw distributions. */
export function formatDecisionsResponse(request: NormalizedDecisionRequest, result: DecisionEngineResult): DecisionsResponse {
    if (result.answers.length !== request.questions.length)
        throw new RangeError(`the engine answered ${result.answers.length} of ${request.questions.length} questions`);
    const answers = request.questions.map((question, index): DecisionsAnswer => {
        const summary = summarizeDistribution(question, result.answers[index].probabilities);
        const name = question.name ?? null;
        if (question.kind === "yesno") return {type: "predicate", name, probability: summary.probabilities[0]};
        if (question.kind === "choice") return {
            type: "choice",
            name,
            choice: question.options[summary.top].value as string | boolean,
            probabilities: question.options.map((option, optionIndex) => ({value: option.value as string | boolean, probability: summary.probabilities[optionIndex]})),
            confidence: summary.confidence
        };
        return {
            type: "score",
            name,
            score: summary.score,
            probabilities: question.options.map((option, level) => ({value: level, label: option.text, probability: summary.probabilities[level]})),
            confidence: summary.confidence
        };
    });
    const {inputTokens, outputTokens} = result.usage;
    const response: DecisionsResponse = {
        model: modelIds.decision,
        answers,
        usage: {
            input_tokens: inputTokens,
            input_tokens_details: {cached_tokens: 0, cache_write_tokens: 0},
            output_tokens: outputTokens,
            output_tokens_details: {reasoning_tokens: 0},
            total_tokens: inputTokens + outputTokens
        }
    };
    if (request.explain) response.x_svc = {explanations: collectExplanations(request, result)};
    return response;
}
