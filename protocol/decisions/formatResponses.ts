import type {DecisionEngineResult, NormalizedDecisionRequest, DecisionsAnswer, DecisionsResponse, SystemoneAnswer, SystemoneResponse} from "./types.ts";
import {modelIds} from "../limits.ts";
import {summarizeDistribution} from "./distributions.ts";
import {ApiError, type ErrorEnvelope, type SystemoneErrorBody} from "../errors.ts";
import {formatPath, ValidationError} from "../validation.ts";

/** One explanation per question, in question order; a missing one is an engine bug, not something to hide. */
export function collectExplanations(request: NormalizedDecisionRequest, result: DecisionEngineResult): string[] {
    return collectPerQuestion(request, result, "explanation", (value): value is string => typeof value === "string");
}

/** One label mass per question, in question order, rounded like the probabilities (2 decimals; spec 2.8). */
export function collectLabelMasses(request: NormalizedDecisionRequest, result: DecisionEngineResult): number[] {
    const masses = collectPerQuestion(request, result, "labelMass", (value): value is number => typeof value === "number" && value >= 0 && value <= 1 + 1e-9);
    return masses.map((mass) => Math.min(1, Math.round(mass * 100) / 100));
}

/** The `x_svc` of a `/v1/decisions` response, in answer order: what the request asked for, or undefined. */
function decisionsExtensions(request: NormalizedDecisionRequest, result: DecisionEngineResult): DecisionsResponse["x_svc"] {
    const extensions: NonNullable<DecisionsResponse["x_svc"]> = {};
    if (request.explain) extensions.explanations = collectExplanations(request, result);
    if (request.labelMass) extensions.label_mass = collectLabelMasses(request, result);
    return Object.keys(extensions).length > 0 ? extensions : undefined;
}

function collectPerQuestion<K extends "explanation" | "labelMass", T>(request: NormalizedDecisionRequest, result: DecisionEngineResult, field: K,
    valid: (value: unknown) => value is T): T[] {
    return request.questions.map((question, index) => {
        const value = result.answers[index]?.[field];
        if (!valid(value)) throw new RangeError(`question ${question.index}: ${field} was requested but the engine gave ${value === undefined ? "none" : String(value)}`);
        return value;
    });
}

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
    const extensions = decisionsExtensions(request, result);
    if (extensions) response.x_svc = extensions;
    return response;
}

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
    // The same values as /v1/decisions, keyed by question name (spec 2.10 keys explanations so on this endpoint).
    const extensions = decisionsExtensions(request, result);
    if (extensions) {
        const byName = <T>(values: T[]) => Object.fromEntries(answers.map(([name], index) => [name, values[index]]));
        response.x_svc = {
            ...(extensions.explanations ? {explanations: byName(extensions.explanations)} : {}),
            ...(extensions.label_mass ? {label_mass: byName(extensions.label_mass)} : {})
        };
    }
    return response;
}

// Error bodies of the decision endpoints (spec 7). A request problem (ValidationError, or the SyntaxError of
// JSON.parse on a malformed body) is a 400 `invalid_request` envelope with `param` and `ref` on /v1/decisions
// and a 422 `{detail: [...]}` body on /v1/systemone. An ApiError (413, 429, 502, ...) keeps its status and
// envelope on both endpoints (spec 8: an oversized body is 413 on both). Anything else is an internal error
// whose message is not leaked.

export type DecisionErrorResponse<Body> = {status: number, body: Body, retryAfter?: number};

/** 422 `loc` follows the FastAPI convention the `detail`/`loc`/`msg`/`type` shape comes from: "body" first. */
const locRoot = "body";

export function decisionsErrorResponse(error: unknown, options: {ref?: string} = {}): DecisionErrorResponse<ErrorEnvelope> {
    const ref = options.ref ?? newRef();
    if (error instanceof SyntaxError)
        return {status: 400, body: {error: {message: `body: malformed JSON: ${error.message}`, type: "invalid_request_error", code: "invalid_request", param: null, ref}}};
    if (error instanceof ValidationError) {
        const first = error.path[0];
        // Spec 7 names `request_rejected` for an image that cannot be read; every other problem is invalid_request.
        const code = error.code ?? "invalid_request";
        return {status: 400, body: {error: {message: error.message, type: "invalid_request_error", code, param: typeof first === "string" ? first : null, ref}}};
    }
    if (error instanceof ApiError) {
        const envelope = error.toEnvelope();
        return {status: error.status, body: {...envelope, error: {...envelope.error, param: envelope.error.param ?? null, ref}}, retryAfter: error.retryAfter};
    }
    return {status: 500, body: {error: {message: "internal error", type: "api_error", code: "internal_error", param: null, ref}}};
}

export function systemoneErrorResponse(error: unknown): DecisionErrorResponse<SystemoneErrorBody | ErrorEnvelope> {
    if (error instanceof SyntaxError)
        return {status: 422, body: {detail: [{loc: [locRoot], msg: `JSON decode error: ${error.message}`, type: "json_invalid"}]}};
    if (error instanceof ValidationError)
        return {status: 422, body: {detail: error.problems.map((problem) => ({loc: [locRoot, ...problem.path], msg: `${formatPath(problem.path)}: ${problem.message}`, type: "value_error"}))}};
    if (error instanceof ApiError) return {status: error.status, body: error.toEnvelope(), retryAfter: error.retryAfter};
    return {status: 500, body: {error: {message: "internal error", type: "api_error", code: "internal_error"}}};
}

/** A reference the client can quote; random, as the pure protocol layer keeps no request log of its own. */
function newRef(): string {
    return `req_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
}
