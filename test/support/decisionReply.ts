// Test-only: a Reply that answers /v1/decisions and /v1/systemone bodies as a real server would shape them
// (the protocol's own parsers and formatters), with probabilities drawn from a hash of the input text, so the
// same row always gets the same answer and different rows get different ones.
import {formatDecisionsResponse, formatSystemoneResponse} from "../../protocol/decisions/formatResponses.ts";
import {parseDecisionsRequest} from "../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../protocol/decisions/parseSystemoneRequest.ts";
import type {RecordedRequest, Reply} from "./startTestServer.ts";

/** The request's input text (decisions `input`, systemone `state` as text): what a test keys rows by. */
export function requestText(request: RecordedRequest): string {
    const body = JSON.parse(request.body) as {input?: unknown, state?: unknown};
    const value = body.input ?? body.state;
    return typeof value === "string" ? value : JSON.stringify(value);
}

export function decisionReply(options: {delayMs?: number} = {}): Reply {
    return async (res, request) => {
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        const body = JSON.parse(request.body);
        const systemone = request.url.endsWith("/systemone");
        const normalized = systemone ? parseSystemoneRequest(body) : parseDecisionsRequest(body);
        let seed = hash(normalized.text);
        const answers = normalized.questions.map((question) => ({
            probabilities: question.options.map(() => {
                seed = (seed * 1103515245 + 12345) >>> 0;
                return 0.05 + (seed % 1000) / 1000;
            })
        }));
        const result = {answers, usage: {inputTokens: normalized.text.length, outputTokens: 0}};
        const response = systemone ? formatSystemoneResponse(normalized, result) : formatDecisionsResponse(normalized, result);
        if (res.destroyed) return;
        res.writeHead(200, {"content-type": "application/json"});
        res.end(JSON.stringify(response));
    };
}

function hash(text: string): number {
    let value = 2166136261;
    for (let index = 0; index < text.length; index++) value = Math.imul(value ^ text.charCodeAt(index), 16777619) >>> 0;
    return value;
}
