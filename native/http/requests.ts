import type {IncomingMessage, ServerResponse} from "node:http";
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
 * Spec §4: every POST sends `Content-Type: application/json`. Enforced before the body is read (415), because it is
 * what keeps browsers out of a keyless engine: a cross-origin page can POST `text/plain`, form or multipart bodies
 * without a CORS preflight ("simple" requests), never `application/json`.
 */
export function requireJsonBody(req: IncomingMessage) {
    const type = req.headers["content-type"]?.split(";")[0].trim().toLowerCase();
    if (type !== "application/json")
        throw new ApiError(415, "unsupported_media_type",
            `POST bodies must be sent with Content-Type: application/json, got ${JSON.stringify(req.headers["content-type"] ?? "none")}`);
}

/** True when the request announces a body (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
    const length = req.headers["content-length"];
    return (length != null && length !== "0") || req.headers["transfer-encoding"] != null;
}

/** How long a refused upload's connection stays half-closed before it is dropped (Go's net/http waits 500 ms). */
const lingerMs = 1_000;

/**
 * For an answer written before the body was read to its end (a refusal, or a body nobody asked for): read no more of
 * it, and close the connection once the answer is out, so the client's upload stops.
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse) {
    if (!hasBody(req) || req.complete || res.headersSent) return;
    // Node drains a request body nobody read, to reuse the connection (its comment: "If the user never called
    // req.read() ... we call req._dump()"), which would pull a refused 70 MB upload through this process. Reading
    // what is already buffered (a socket read or two) counts as reading; the rest stays in the kernel's buffers,
    // where TCP flow control holds the sender.
    req.pause();
    while (req.read() != null) {
        // discarded
    }
    // `Connection: close`, so no client sends another request on this socket. Node then ends the socket once the answer
    // is written and destroys it as soon as the FIN is out (socket.destroySoon); destroyed with upload bytes unread,
    // the kernel sends RST, which can wipe out the answer before the client has read it (seen with Node's own client).
    // So this one socket waits a moment between the FIN and the close, as Go's server does.
    res.setHeader("Connection", "close");
    const socket = req.socket;
    socket.destroySoon = () => {
        socket.end();
        setTimeout(() => socket.destroy(), lingerMs).unref();
    };
}

/**
 * Reads the whole body within `maxBytes` and `timeoutMs`, then parses it as JSON. A declared `Content-Length` over
 * the limit is a 413 before any byte is read; a chunked body is a 413 as soon as it passes the limit, and a body still
 * arriving at the deadline a 408 (spec §7, §8). On either refusal reading stops there; the caller answers through
 * `closeIfBodyUnread`, which closes the connection.
 */
export async function readJsonBody(req: IncomingMessage, {maxBytes, timeoutMs}: {maxBytes: number, timeoutMs: number}): Promise<unknown> {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);

    // With a declared length the body goes into one buffer of that size as it arrives, so a big body is held once,
    // not as chunks plus their concatenation (a 10 MB chat peaked at 4x its size in RSS); chunked bodies
    // are collected and joined.
    const whole = Number.isFinite(declared) && declared >= 0 ? Buffer.allocUnsafe(declared) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    await new Promise<void>((resolve, reject) => {
        const stop = (error: Error) => {
            clearTimeout(timer);
            req.off("data", onData);
            req.pause();
            reject(error);
        };
        const timer = setTimeout(() => stop(new ApiError(408, "request_timeout", `the request body was still arriving after ${timeoutMs / 1000} s`)), timeoutMs);
        const onData = (chunk: Buffer) => {
            if (size + chunk.length > maxBytes) return stop(tooLarge(maxBytes));
            if (whole != null) chunk.copy(whole, size);
            else chunks.push(chunk);
            size += chunk.length;
        };
        req.on("data", onData);
        req.on("end", () => {
            clearTimeout(timer);
            resolve();
        });
        req.on("error", (error) => {
            clearTimeout(timer);
            reject(error);
        });
    });

    // Node's parser ends a body at its Content-Length, so `size` never exceeds `whole`.
    const text = (whole != null ? whole.subarray(0, size) : Buffer.concat(chunks)).toString("utf8");
    chunks.length = 0;
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
