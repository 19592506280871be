import {existsSync} from "node:fs";
import {ApiError} from "../../protocol/errors.ts";
import {limits, modelIds} from "../../protocol/limits.ts";
import {createDecisionRoutes} from "../decisions/routes.ts";
import {unixSeconds} from "../engine/LocalEngine.ts";
import type {Route} from "../http/HttpServer.ts";
import {createModelsRoutes} from "../models/routes.ts";
import {type RunningServer, type ServiceOptions, serveRoutes} from "../startServer.ts";
import {UpstreamClient, type UpstreamOptions} from "./UpstreamClient.ts";
import {createUpstreamChatRoutes} from "./upstreamChatRoutes.ts";
import {createUpstreamDecisionEngine, loadUpstreamVocabulary, probeTimeoutMs, UpstreamDecisionEngine, type UpstreamVocabulary} from "./upstreamDecisions.ts";
import {onceSucceeded, readUpstreamFacts, type UpstreamFacts} from "./upstreamFacts.ts";

export type UpstreamServerOptions = ServiceOptions & {upstream: UpstreamOptions};

export type RunningUpstreamServer = Omit<RunningServer, "engine"> & {
    upstream: UpstreamClient,
    /** The engine's facts when it answered at startup, else undefined (they are read again on the first request). */
    facts?: UpstreamFacts,
    /** How decisions are served: the label method found, or why they get a 503 or 502 for now. */
    decisions: string
};

/**
 * `svc-studio serve --upstream`: the spec's whole API with an OpenAI-compatible engine as the model. The
 * routes are this server's (chat family forwarded, decisions computed from the upstream's token probabilities);
 * the HTTP server, keys, workspaces, credits, rate limits and metrics are the same as in front of the local engine
 * (serveRoutes). Nothing here needs the upstream up at startup: what it could not learn then, it learns on the
 * first request that needs it.
 */
export async function startUpstreamServer(options: UpstreamServerOptions): Promise<RunningUpstreamServer> {
    const upstream = new UpstreamClient(options.upstream);
    const facts = onceSucceeded(() => readUpstreamFacts(upstream, options.upstream.model, AbortSignal.timeout(probeTimeoutMs)));
    const givenModel = options.upstream.model;
    const model = givenModel != null ? () => Promise.resolve(givenModel) : async () => (await facts()).model;

    let vocabulary: UpstreamVocabulary | undefined;
    const loadVocabulary = onceSucceeded(async () => {
        const path = options.upstream.tokenizerPath ?? (await facts()).modelPath;
        if (path == null || !existsSync(path))
            throw new ApiError(503, "service_unavailable", "decisions in front of an upstream engine need a local copy of its model file (GGUF) for the " +
                `prompts' and labels' token ids; start the server with --upstream-tokenizer <file.gguf>${path != null ? ` (the upstream's ${path} is not on this machine)` : ""}`);
        vocabulary = await loadUpstreamVocabulary(path);
        return vocabulary;
    });
    const decisions = new UpstreamDecisionEngine(async (signal) => {
        const known = await facts();
        return createUpstreamDecisionEngine({
            upstream, upstreamModel: known.model, vocabulary: await loadVocabulary(),
            contextSize: known.contextSize ?? limits.contextWindow, signal
        });
    });

    // The probe at startup only reports: a failure here is answered again (and retried) per request.
    const known = await facts().catch(() => undefined);
    const decisionStatus = await decisions.ready().then(
        ({method}) => `decisions from the upstream's label-token probabilities, ${method.named ? "named by id (logprob_token_ids)" : "under logit_bias"} ` +
            `(with ${Object.keys(method.extra).join(", ")}; up to ${method.cap} alternatives a request)`,
        (error: unknown) => `decisions unavailable for now: ${(error as Error).message}`);

    const created = unixSeconds();
    const routes: Route[] = [
        ...createModelsRoutes(modelIds.chat, [modelIds.chat], created),
        ...createUpstreamChatRoutes(upstream, model),
        ...createModelsRoutes(modelIds.decision, [modelIds.decision], created),
        ...createDecisionRoutes(decisions)
    ];
    const running = await serveRoutes(options, routes, {
        // A request holds credit for the most tokens one sequence can take (billing.ts): the upstream's, else the spec's window.
        holdTokens: known?.contextSize ?? limits.contextWindow,
        queues: [{model: `${modelIds.chat},${modelIds.decision}`, depth: () => upstream.pool.waiting, busy: () => upstream.active}]
    }, async () => {
        upstream.close();
        await vocabulary?.dispose();
    });
    return {...running, upstream, ...(known != null ? {facts: known} : {}), decisions: decisionStatus};
}
