import type {DecisionEngineResult, NormalizedDecisionRequest} from "../types.ts";

/** One explanation per question, in question order; a missing one is an engine bug, not something to hide. */
export function collectExplanations(request: NormalizedDecisionRequest, result: DecisionEngineResult): string[] {
    return request.questions.map((question, index) => {
        const explanation = result.answers[index]?.explanation;
        if (typeof explanation !== "string") throw new RangeError(`question ${question.index}: explanations were requested but the engine gave none`);
        return explanation;
    });
}
