import type {ScoringRequest} from "../../../../client/scoring/index.ts";
import {parseDecisionsRequest} from "../../../../protocol/decisions/parseDecisionsRequest.ts";
import {parseSystemoneRequest} from "../../../../protocol/decisions/parseSystemoneRequest.ts";
import {limits} from "../../../../protocol/limits.ts";
import {ValidationError} from "../../../../protocol/validation.ts";

/**
 * Why the server would refuse this request before running it, in its words (the endpoint's own parser: images
 * readable and at most 25 megapixels, at most 100,000 JSON values...), or the 8 MiB body limit (413); null
 * when it would be accepted.
 */
export function checkDecisionRequest(request: ScoringRequest): string | null {
    const bytes = new TextEncoder().encode(JSON.stringify(request.body)).byteLength;
    if (bytes > limits.decisionBodyBytes)
        return `body: ${bytes.toLocaleString("en-US")} bytes; decision requests may be at most ${limits.decisionBodyBytes.toLocaleString("en-US")} bytes (8 MiB)`;
    try {
        if (request.format === "decisions") parseDecisionsRequest(request.body);
        else parseSystemoneRequest(request.body);
        return null;
    } catch (error) {
        if (error instanceof ValidationError) return error.message;
        throw error;
    }
}
