import {modelIds} from "../limits.ts";
import type {DecisionEngineResult, NormalizedDecisionRequest, SystemoneAnswer, SystemoneResponse} from "./types.ts";
import {collectExplanations} from "./utils/collectExplanations.ts";
import {summarizeDistribution} from "./utils/summarizeDistribution.ts";

// Objects keyed by client-chosen names are built with Object.fromEntries, which defines own properties, so a
// question or option named "__proto__" is reported like any other instead of replacing the prototype.

/** The `/v1/systemone` body (spec 2.8) from the engine's raw distributions. */
export function formatSystemoneResponse(request: NormalizedDecisionRequest, result: DecisionEngineResult): SystemoneResponse {
    if (result.answers.length !== request.questions.length)
        throw new RangeError(`the engine answered ${result.answers.length} of ${request.questions.length} questions`);
    const answers = request.questions.map((question, index): [string, SystemoneAnswer] => {
        const summary = summarizeDistribution(question, result.answers[index].probabilities);
        const name = question.name ?? String(question.index);
        if (question.kind === "yesno") return [name, {type: "noul", noul: summary.probabilities[0]}];
        if (question.kind === "choice") return [name, {
            type: "choice",
            choice: question.options[summary.top].text,
            probabilities: Object.fromEntries(question.options.map((option, optionIndex) => [option.text, summary.probabilities[optionIndex]])),
            confidence: summary.confidence
        }];
        return [name, {
            type: "score",
            score: summary.score,
            probabilities: Object.fromEntries(question.options.map((_, level) => [String(level), summary.probabilities[level]])),
            confidence: summary.confidence,
            legend: Object.fromEntries(question.options.map((option, level) => [String(level), option.text]))
        }];
    });
    const response: SystemoneResponse = {
        model: modelIds.decision,
        answers: Object.fromEntries(answers),
        usage: {input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens}
    };
    if (request.explain) {
        const explanations = collectExplanations(request, result);
        response.x_svc = {explanations: Object.fromEntries(answers.map(([name], index) => [name, explanations[index]]))};
    }
    return response;
}
