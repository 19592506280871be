import {type IncomingMessage, type ServerResponse, createServer, type Server} from "node:http";
import {type ErrorFormatter, formatApiError, baseHeaders, writeJson} from "./replies.ts";
import type {AddressInfo} from "node:net";
import {ApiError} from "../../protocol/errors.ts";
import {BrowserPolicy} from "./browserPolicy.ts";
import {closeIfBodyUnread, readJsonBody, requireJsonBody} from "./requests.ts";
import {bearerToken, missingKeyMessage, type RequestGate, type RequestMeter, unauthorized} from "./gate.ts";

/** What a handler knows about the exchange it serves: the raw pair, its timing start, trace id and abort signal. */
export type RequestContext = {
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    /** `performance.now()` when the request arrived; Server-Timing measures from here. */
    startedAt: number,
    traceId?: string,
    /** Aborted when the client goes away, so generation stops instead of running for nobody. */
    signal: AbortSignal,
    /** Path segment naming the model, e.g. `svc-1`. */
    modelSegment: string,
    /** Where the route reports the request's usage (http/gate.ts); set once the gate admitted the request. */
    meter?: RequestMeter
};

/** One endpoint: `{modelSegment}{path}`, e.g. `svc-1` + `/v1/chat/completions`. */
export type Route = {
    method: "GET" | "POST",
    model: string,
    path: string,
    /** Body size limit in bytes (spec §8); POST only. */
    maxBodyBytes?: number,
    /** How this endpoint family writes errors; the OpenAI envelope when absent. */
    formatError?: ErrorFormatter,
    handle(context: RequestContext, body: unknown): Promise<void>
};

export type HttpServerOptions = {
    routes: Route[],
    /** Accepted bearer keys; empty means no authentication. */
    apiKeys: string[],
    /** Body read deadline: past it a still-arriving body is a 408 (spec §7). */
    bodyTimeoutMs?: number,
    /** Browser origins a keyless server answers CORS for, besides loopback ones (`--cors-origins`; see BrowserPolicy). */
    corsOrigins?: string[],
    /** Workspaces, keys, credits, rate limits and metrics (native/service); when given it replaces the `apiKeys` check. */
    gate?: RequestGate
};

/** HTTP plumbing of the local engine: routing, auth, the browser policy (CORS, Host), trace ids, body limits and error envelopes. */
export class HttpServer {
    private readonly server: Server;
    private readonly routes: Route[];
    private readonly apiKeys: Set<string>;
    private readonly bodyTimeoutMs: number;
    private readonly models: Set<string>;
    private readonly browserPolicy: BrowserPolicy;
    private readonly inFlight = new Set<AbortController>();
    private readonly gate?: RequestGate;

    public constructor({routes, apiKeys, bodyTimeoutMs = 60_000, corsOrigins, gate}: HttpServerOptions) {
        this.routes = routes;
        this.apiKeys = new Set(apiKeys);
        this.gate = gate;
        this.browserPolicy = new BrowserPolicy({keyed: apiKeys.length > 0 || gate?.keyed === true, corsOrigins});
        this.bodyTimeoutMs = bodyTimeoutMs;
        this.models = new Set(routes.map((route) => route.model));
        this.server = createServer((req, res) => void this.serve(req, res));
        this.server.keepAliveTimeout = 5_000;
    }

    public async listen(port: number, host: string): Promise<{host: string, port: number}> {
        await new Promise<void>((resolve, reject) => {
            this.server.once("error", reject);
            this.server.listen(port, host, () => {
                this.server.off("error", reject);
                resolve();
            });
        });
        const address = this.server.address() as AddressInfo;
        return {host, port: address.port};
    }

    /** Stops accepting, aborts every in-flight request and waits for the sockets to close. */
    public async close() {
        for (const controller of this.inFlight) controller.abort(new Error("server shutting down"));
        const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
        this.server.closeIdleConnections();
        setTimeout(() => this.server.closeAllConnections(), 2_000).unref();
        await closed;
    }

    private async serve(req: IncomingMessage, res: ServerResponse) {
        const startedAt = performance.now();
        const traceId = headerValue(req, "x-client-trace-id");
        const url = new URL(req.url ?? "/", "http://localhost");
        const controller = new AbortController();
        this.inFlight.add(controller);
        // `close` on the response fires when the client hangs up before we finished: stop the work for it.
        res.on("close", () => {
            if (!res.writableFinished) controller.abort(new Error("client disconnected"));
            this.inFlight.delete(controller);
        });

        // CORS headers go on first, so every answer below (errors included) carries what the policy allows.
        for (const [name, value] of Object.entries(this.browserPolicy.corsHeaders(req))) res.setHeader(name, value);

        const [, modelSegment = "", ...rest] = url.pathname.split("/");
        const context: RequestContext = {req, res, url, startedAt, traceId, signal: controller.signal, modelSegment};
        const route = this.routes.find((candidate) =>
            candidate.model === modelSegment && candidate.path === "/" + rest.join("/") && candidate.method === req.method);
        const formatError: ErrorFormatter = route?.formatError ?? formatApiError;
        // Only a POST route reads a body: one sent anywhere else (a GET, a preflight, /health) is never drained.
        const gateOwns = this.gate?.owns(url) === true;
        if (route?.method !== "POST" && !gateOwns) closeIfBodyUnread(req, res);

        // Every refusal below comes before the first body byte is read: Host and Origin, then the
        // key, then the route, then the body's type and declared length; readJsonBody stops a chunked body at the limit.
        try {
            this.browserPolicy.check(req);
            // Preflights carry no credentials (Fetch standard), so they are answered before the key check.
            if (req.method === "OPTIONS") return this.answerPreflight(req, res, traceId);
            if (url.pathname === "/health" && req.method === "GET")
                return writeJson(res, 200, {status: "ok"}, baseHeaders(traceId));
            if (this.gate == null) this.authenticate(req);
            else if (gateOwns) return await this.gate.handle(context);
            else context.meter = await this.gate.admit(context);
            if (!this.models.has(modelSegment))
                throw new ApiError(404, "not_found", `the model ${JSON.stringify(modelSegment)} is not served here; available: ${[...this.models].join(", ")}`);
            if (route == null) {
                const otherMethod = this.routes.some((candidate) => candidate.model === modelSegment && candidate.path === "/" + rest.join("/"));
                throw new ApiError(otherMethod ? 405 : 404, otherMethod ? "method_not_allowed" : "not_found",
                    otherMethod ? `${req.method} is not allowed on ${url.pathname}` : `no endpoint ${req.method} ${url.pathname}`);
            }
            if (route.method === "POST") requireJsonBody(req);
            const body = route.method === "POST"
                ? await readJsonBody(req, {maxBytes: route.maxBodyBytes ?? Infinity, timeoutMs: this.bodyTimeoutMs})
                : undefined;
            await route.handle(context, body);
        } catch (error) {
            if (res.headersSent || controller.signal.aborted) {
                if (!res.writableEnded) res.end();
                return;
            }
            closeIfBodyUnread(req, res);
            const {status, body, headers} = formatError(error);
            writeJson(res, status, body, {...baseHeaders(traceId), ...headers});
        }
    }

    private authenticate(req: IncomingMessage) {
        if (this.apiKeys.size === 0) return;
        const token = bearerToken(req);
        if (token == null || !this.apiKeys.has(token)) throw unauthorized(token == null ? missingKeyMessage : "the API key is not valid");
    }

    /** Spec §4: preflights are answered; with the CORS headers the policy set, or none for an origin it refused above. */
    private answerPreflight(req: IncomingMessage, res: ServerResponse, traceId: string | undefined) {
        res.writeHead(204, {
            ...baseHeaders(traceId),
            "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
            "Access-Control-Allow-Headers": headerValue(req, "access-control-request-headers") ?? "Authorization, Content-Type, X-Client-Trace-Id",
            "Access-Control-Max-Age": "600"
        });
        res.end();
    }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
}
