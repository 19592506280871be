import http from "node:http";
import https from "node:https";
import type {Socket} from "node:net";
import {Readable} from "node:stream";
import {ApiError} from "../../protocol/errors.ts";

/**
 * How a front holds its connections to the upstream engine (docs/deployment.md, "Connections to the engine").
 * HTTP/1.1 without pipelining: one request at a time on a connection, since a pipelined short request would wait
 * behind a long generation, and engines (llama-server's cpp-httplib, uvicorn) answer pipelined requests in order.
 */
export type UpstreamPoolOptions = {
    /** Requests this front has at the upstream at once, each on a connection of its own. */
    connections?: number,
    /** Requests that may wait for a free connection; past that the front answers 429 `service_busy`. */
    queue?: number,
    /** The longest an idle connection is kept while the upstream has announced no keep-alive timeout. */
    idleMs?: number
};

/**
 * 128 connections: more than an engine's parallel sequences (llama-server's `-np`, vLLM's batch), so its own
 * scheduler sees the queue; and three fronts' worth stays under llama-server's 1,024 extra HTTP threads. 2 s idle:
 * below the 5 s keep-alive of cpp-httplib and uvicorn when the upstream does not say its own.
 */
export const upstreamPoolDefaults = {connections: 128, queue: 1_024, idleMs: 2_000} as const;

/** Seconds a 429 from a full queue asks to wait: about the time the requests ahead of it take to start. */
const busyRetryAfterSeconds = 1;

/**
 * The connections to one upstream: a keep-alive pool of at most `connections` sockets, requests beyond that waiting
 * in a bounded queue. An idle connection is dropped well before the upstream would close it: after half the
 * keep-alive timeout it announces (`Keep-Alive: timeout=N`, as llama-server does), else after `idleMs`. A request
 * that fails before any byte of an answer came back (the upstream closed the connection as it was reused, or reset a
 * new one) is sent once more, on a connection opened for it alone and closed after it; a response that has begun is
 * never sent again, so a stream is never repeated.
 */
export class UpstreamPool {
    private readonly agent: http.Agent;
    private readonly transport: typeof http | typeof https;
    private readonly queue: number;
    private idleMs: number;

    public constructor(origin: URL, {connections = upstreamPoolDefaults.connections, queue = upstreamPoolDefaults.queue,
        idleMs = upstreamPoolDefaults.idleMs}: UpstreamPoolOptions = {}) {
        this.transport = origin.protocol === "https:" ? https : http;
        // LIFO: the connection used last goes out first, so those a lull left idle age out and close, rather than
        // being taken in turn when they are oldest and nearest the upstream's own timeout.
        this.agent = new this.transport.Agent({keepAlive: true, maxSockets: connections, maxFreeSockets: connections, scheduling: "lifo"});
        this.queue = queue;
        this.idleMs = idleMs;
        // Node's agent already shortens a free socket's life to the announced timeout less 1 s; half of it leaves room
        // for a busy event loop whose timers fire late, and for the time between the upstream's last byte and ours.
        const keep = this.agent.keepSocketAlive.bind(this.agent);
        this.agent.keepSocketAlive = (socket: Socket) => {
            // Typed as void; Node answers false when the announced timeout is too short to keep the socket at all.
            if ((keep(socket) as unknown) === false) return false;
            socket.setTimeout(this.idleMs);
            return true;
        };
    }

    /** The idle time a kept connection has now, in ms (learned from the upstream's Keep-Alive header). */
    public get keepAliveMs(): number {
        return this.idleMs;
    }

    /** Requests waiting for a connection of the pool. */
    public get waiting(): number {
        return Object.values(this.agent.requests).reduce((sum, requests) => sum + (requests?.length ?? 0), 0);
    }

    /** Requests on the pool's connections now. */
    public get answering(): number {
        return Object.values(this.agent.sockets).reduce((sum, sockets) => sum + (sockets?.length ?? 0), 0);
    }

    /**
     * Sends one request and resolves with the response once its status and headers have come; its body streams. A
     * full queue is the spec's 429 `service_busy`. Other failures reject with the transport's error (its `code`).
     */
    public async request(url: string, init: {method: string, headers: Record<string, string>, body?: string}, signal: AbortSignal): Promise<Response> {
        if (this.waiting >= this.queue)
            throw new ApiError(429, "service_busy", `the upstream engine is saturated: ${this.answering} requests at it and ${this.waiting} waiting; ` +
                `retry after ${busyRetryAfterSeconds} s`, {retryAfter: busyRetryAfterSeconds});
        try {
            return await this.attempt(url, init, signal, this.agent);
        } catch (error) {
            if (signal.aborted || !closedBeforeAnswer(error)) throw error;
            // `agent: false`: a connection of its own, opened now and closed after this request (`Connection: close`).
            return this.attempt(url, init, signal, false);
        }
    }

    public close() {
        this.agent.destroy();
    }

    private attempt(url: string, {method, headers, body}: {method: string, headers: Record<string, string>, body?: string}, signal: AbortSignal,
        agent: http.Agent | false): Promise<Response> {
        return new Promise((resolve, reject) => {
            const request = this.transport.request(url, {
                method, agent, signal,
                headers: body != null ? {...headers, "Content-Length": String(Buffer.byteLength(body))} : headers
            });
            // A kept socket's idle timer does not apply while it carries a request (keepSocketAlive sets it again).
            request.once("socket", (socket: Socket) => socket.setTimeout(0));
            // Kept for the request's whole life: an abort while the body streams errors the request again (the body's
            // stream reports it to its reader), and an error event without a listener would end the process.
            request.on("error", reject);
            request.once("response", (response) => {
                this.learnKeepAlive(String(response.headers["keep-alive"] ?? ""));
                resolve(toResponse(response));
            });
            request.end(body);
        });
    }

    /** `Keep-Alive: timeout=N[, max=M]`: idle connections are then kept N/2 seconds (cpp-httplib's N is 5). */
    private learnKeepAlive(header: string) {
        const seconds = Number(/(?:^|[\s,])timeout=(\d+)/i.exec(header)?.[1]);
        if (Number.isSafeInteger(seconds) && seconds > 0) this.idleMs = seconds * 1000 / 2;
    }
}

/** Node's errors of a connection closed or reset under a request that had no answer yet. */
export function closedBeforeAnswer(error: unknown): boolean {
    const code = (error as {code?: unknown}).code;
    return code === "ECONNRESET" || code === "EPIPE";
}

/** A Node response as a fetch Response, its body streamed as it arrives. */
function toResponse(response: http.IncomingMessage): Response {
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers))
        for (const one of Array.isArray(value) ? value : value == null ? [] : [value]) headers.append(name, one);
    const status = response.statusCode ?? 502;
    if (status === 204 || status === 304) {
        response.on("error", () => {}).resume();
        return new Response(null, {status, headers});
    }
    return new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, {status, statusText: response.statusMessage, headers});
}
