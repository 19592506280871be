import type {UpstreamClient} from "./UpstreamClient.ts";

/** What this server learns about its upstream engine from the engine's own listings. */
export type UpstreamFacts = {
    /** The model name sent in every body: `--upstream-model`, else the first the engine lists. */
    model: string,
    /** Tokens per sequence, where the engine says (vLLM's `max_model_len`, llama-server's `n_ctx`). */
    contextSize?: number,
    /** The model file the engine loaded, where it says (llama-server's `/props`): a local copy of its vocabulary when readable here. */
    modelPath?: string
};

type ModelList = {data?: Array<{id?: string, max_model_len?: number, meta?: {n_ctx?: number}}>};
type LlamaServerProps = {model_path?: string, default_generation_settings?: {n_ctx?: number}};

/**
 * Reads `GET {base}/models` (OpenAI; vLLM adds `max_model_len`, llama-server `meta.n_ctx`) and, where it exists,
 * llama-server's `GET /props`. Throws the client's 502/503 when the engine cannot be reached.
 */
export async function readUpstreamFacts(upstream: UpstreamClient, givenModel: string | undefined, signal: AbortSignal): Promise<UpstreamFacts> {
    const list = await upstream.getJson<ModelList>(`${upstream.baseUrl}/models`, signal);
    const entries = list.data ?? [];
    const entry = givenModel != null ? entries.find((candidate) => candidate.id === givenModel) : entries[0];
    const model = givenModel ?? entry?.id;
    if (model == null) throw new Error(`the upstream engine at ${upstream.baseUrl} lists no model; name one with --upstream-model`);
    // Only llama-server has /props; any other engine's 404 there just means "not llama-server".
    const props = await upstream.getJson<LlamaServerProps>(`${upstream.rootUrl}/props`, signal).catch(() => undefined);
    // llama-server's /props gives one slot's context (its -c split between -np slots); /models gives the whole of it.
    const contextSize = entry?.max_model_len ?? props?.default_generation_settings?.n_ctx ?? entry?.meta?.n_ctx;
    return {model, ...(contextSize != null ? {contextSize} : {}), ...(props?.model_path != null ? {modelPath: props.model_path} : {})};
}

/** A value worked out once it can be: a failure is not kept, so an upstream that was down is asked again next time. */
export function onceSucceeded<T>(work: () => Promise<T>): () => Promise<T> {
    let pending: Promise<T> | undefined;
    return () => {
        pending ??= work().catch((error: unknown) => {
            pending = undefined;
            throw error;
        });
        return pending;
    };
}
