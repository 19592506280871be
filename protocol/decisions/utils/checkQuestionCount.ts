import {limits} from "../../limits.ts";
import {checkCount} from "./checkCount.ts";

/** Spec 8: 512 questions per request, 64 when explanations are asked for; at least one question. */
export function checkQuestionCount(count: number, explain: boolean) {
    checkCount(count, ["questions"], ["question", "questions"], explain
        ? {min: 1, max: limits.questionsPerRequestWithExplain, maxReason: "when x_svc.explain is true; split the questions across requests"}
        : {min: 1, max: limits.questionsPerRequest, maxReason: "per request; split the questions across requests"});
}
