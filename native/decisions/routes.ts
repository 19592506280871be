import {decisionsErrorResponse, systemoneErrorResponse, type DecisionErrorResponse, formatDecisionsResponse, formatSystemoneResponse} from "../../protocol/decisions/formatResponses.ts";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../protocol/decisions/parseSystemoneRequest.ts";
import type {DecisionEngineResult, NormalizedDecisionRequest} from "../../protocol/decisions/types.ts";
import {ApiError} from "../../protocol/errors.ts";
import {limits, modelIds} from "../../protocol/limits.ts";
import {ValidationError} from "../../protocol/validation.ts";
import {type ErrorFormatter, writeSuccess} from "../http/replies.ts";
import type {Route} from "../http/HttpServer.ts";
import {settleUsage} from "../http/gate.ts";
import type {DecisionEngine} from "./LlamaDecisionEngine.ts";

/** `POST /svc-1-decision/v1/decisions` and `/v1/systemone` (spec 2.8-2.10): one engine (local or upstream), two wire formats. */
export function createDecisionRoutes(engine: DecisionEngine): Route[] {
    const route = (path: string, parse: (body: unknown) => NormalizedDecisionRequest,
        format: (request: NormalizedDecisionRequest, result: DecisionEngineResult) => unknown,
        errorBody: (error: unknown) => DecisionErrorResponse<unknown>): Route => ({
        method: "POST",
        model: modelIds.decision,
        path,
        maxBodyBytes: limits.decisionBodyBytes,
        formatError: toFormatter(errorBody),
        async handle(context, body) {
            const request = parse(body);
            const result = await engine.decide(request, context.signal);
            // Spec §1 rule 4: input billed, output free (billing.ts); a decision that fails (502) never gets here.
            await settleUsage(context, {input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens});
            writeSuccess(context, format(request, result));
        }
    });
    return [
        route("/v1/decisions", parseDecisionsRequest, formatDecisionsResponse, (error) => decisionsErrorResponse(error)),
        route("/v1/systemone", parseSystemoneRequest, formatSystemoneResponse, systemoneErrorResponse)
    ];
}

function toFormatter(errorBody: (error: unknown) => DecisionErrorResponse<unknown>): ErrorFormatter {
    return (error) => {
        if (!(error instanceof ApiError || error instanceof ValidationError || error instanceof SyntaxError))
            console.error("internal error:", error);
        const {status, body, retryAfter} = errorBody(error);
        const headers: Record<string, string> = retryAfter != null ? {"Retry-After": String(retryAfter)} : {};
        return {status, body, headers};
    };
}
