import type {IncomingMessage} from "node:http";
import {ApiError} from "../../protocol/errors.ts";
import {ValidationError} from "../../protocol/validation.ts";
import type {RequestContext} from "./HttpServer.ts";

// A SyntaxError, so the decision endpoints' error bodies recognise it as malformed JSON (param null, 422 json_invalid).
export class MalformedJsonError extends SyntaxError {
    public constructor(message: string) {
        super(message);
        this.name = "MalformedJsonError";
    }
}

/**
 * Reads the whole body within `maxBytes` (413 past it, checked on Content-Length first and then as bytes arrive)
 * and `timeoutMs` (408 when the body is still arriving at the deadline), then parses it as JSON.
 */
export async function readJsonBody(req: IncomingMessage, {maxBytes, timeoutMs}: {maxBytes: number, timeoutMs: number}): Promise<unknown> {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);

    const chunks: Buffer[] = [];
    let size = 0;
    await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
            reject(new ApiError(408, "request_timeout", `the request body was still arriving after ${timeoutMs / 1000} s`));
            req.resume();
        }, timeoutMs);
        req.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
                clearTimeout(timer);
                reject(tooLarge(maxBytes));
                req.resume();
                return;
            }
            chunks.push(chunk);
        });
        req.on("end", () => {
            clearTimeout(timer);
            resolve();
        });
        req.on("error", (error) => {
            clearTimeout(timer);
            reject(error);
        });
    });

    const text = Buffer.concat(chunks).toString("utf8");
    try {
        return JSON.parse(text);
    } catch (error) {
        throw new MalformedJsonError(`the request body is not valid JSON: ${(error as Error).message}`);
    }
}

function tooLarge(maxBytes: number) {
    return new ApiError(413, "payload_too_large", `the request body exceeds the limit of ${maxBytes} bytes`);
}

/** Spec 2.1/9.2: the body's `model` must equal the `<model>` path segment. */
export function checkModelMatchesPath(model: string, context: RequestContext) {
    if (model !== context.modelSegment)
        throw new ValidationError(["model"], `must equal the model in the URL path (${JSON.stringify(context.modelSegment)}), got ${JSON.stringify(model)}`);
}
