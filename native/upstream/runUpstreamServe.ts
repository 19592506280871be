import type {ServeArgs, UpstreamArgs} from "../cli/serveArgs.ts";
import {UsageError} from "../cli/serveArgs.ts";
import {takeSecretEnv} from "../cli/engineKeyEnv.ts";
import {type RunningUpstreamServer, startUpstreamServer} from "./startUpstreamServer.ts";

/**
 * `svc-studio serve --upstream <url>`: starts the front and says what it found (the upstream's model and context,
 * how decisions are served, or why not yet). The upstream's key comes from the variable `--upstream-key-env` names,
 * removed from the environment once read, as the engine key is (engineKeyEnv.ts).
 */
export async function runUpstreamServe(args: ServeArgs, upstreamArgs: UpstreamArgs): Promise<RunningUpstreamServer> {
    const apiKey = upstreamArgs.keyEnv != null ? takeSecretEnv(process.env, upstreamArgs.keyEnv) : undefined;
    if (upstreamArgs.keyEnv != null && apiKey == null) throw new UsageError(`--upstream-key-env names ${upstreamArgs.keyEnv}, which is not set`);
    const server = await startUpstreamServer({
        ...args,
        upstream: {baseUrl: upstreamArgs.baseUrl, model: upstreamArgs.model, apiKey, tokenizerPath: upstreamArgs.tokenizerPath}
    });
    const {facts} = server;
    console.log(facts != null
        ? `upstream ${server.upstream.baseUrl}: model ${facts.model}${facts.contextSize != null ? `, context ${facts.contextSize}` : ""}`
        : `warning: upstream ${server.upstream.baseUrl} did not answer at startup; requests get 502/503 until it does`);
    (server.decisions.startsWith("decisions unavailable") ? console.warn : console.log)(server.decisions);
    return server;
}
