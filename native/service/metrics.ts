import {Counter, Gauge, Histogram, Registry} from "prom-client";
import type {RequestContext} from "../http/HttpServer.ts";
import type {MeteredTokens} from "../../protocol/usage.ts";

/** A model's waiting line, read when /metrics is scraped. */
export type QueueProbe = {model: string, depth(): number, busy(): number};

/**
 * The engine's Prometheus metrics (`GET /metrics`): requests by endpoint and status, their latency, tokens
 * by model and kind, and each model's queue. Its own registry, so several servers in one process (tests) never
 * share counts. Endpoint labels come from the route table, never from the raw path, so a client cannot grow the
 * label set.
 */
export class ServiceMetrics {
    public readonly registry = new Registry();
    private readonly endpoints: Set<string>;
    private readonly requests: Counter<"endpoint" | "status">;
    private readonly latency: Histogram<"endpoint">;
    private readonly tokens: Counter<"model" | "kind">;

    public constructor({endpoints, queues}: {endpoints: string[], queues: QueueProbe[]}) {
        this.endpoints = new Set(endpoints);
        const registers = [this.registry];
        this.requests = new Counter({name: "svc_http_requests_total", help: "HTTP requests answered, by endpoint and status.", labelNames: ["endpoint", "status"], registers});
        this.latency = new Histogram({
            name: "svc_http_request_duration_seconds",
            help: "Time from a request's arrival to the end of its response, by endpoint.",
            labelNames: ["endpoint"],
            buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
            registers
        });
        this.tokens = new Counter({name: "svc_tokens_total", help: "Tokens of completed requests (spec 2.3), by model and kind: uncached_input, cached_input, output.",
            labelNames: ["model", "kind"], registers});
        const probe = (name: string, help: string, read: (queue: QueueProbe) => number) => new Gauge({
            name, help, labelNames: ["model"], registers,
            collect() {
                for (const queue of queues) this.set({model: queue.model}, read(queue));
            }
        });
        probe("svc_queue_depth", "Requests waiting for a sequence, by model.", (queue) => queue.depth());
        probe("svc_sequences_busy", "Sequences generating, by model.", (queue) => queue.busy());
    }

    /** Counts the request and times it when its response ends (or its client leaves). */
    public observe(context: RequestContext) {
        const endpoint = this.endpointOf(context);
        context.res.once("close", () => {
            this.requests.inc({endpoint, status: String(context.res.statusCode)});
            this.latency.observe({endpoint}, (performance.now() - context.startedAt) / 1000);
        });
    }

    public countTokens(model: string, tokens: MeteredTokens) {
        if (tokens.uncachedInputTokens > 0) this.tokens.inc({model, kind: "uncached_input"}, tokens.uncachedInputTokens);
        if (tokens.cachedInputTokens > 0) this.tokens.inc({model, kind: "cached_input"}, tokens.cachedInputTokens);
        if (tokens.outputTokens > 0) this.tokens.inc({model, kind: "output"}, tokens.outputTokens);
    }

    public async render(): Promise<{contentType: string, text: string}> {
        return {contentType: this.registry.contentType, text: await this.registry.metrics()};
    }

    private endpointOf(context: RequestContext): string {
        const {pathname} = context.url;
        if (this.endpoints.has(pathname)) return pathname;
        if (pathname === "/metrics" || pathname.startsWith("/admin/")) return pathname === "/metrics" ? pathname : "/admin";
        return "other";
    }
}
