import {loadModel, type LlamaCompletionOptions, type LlamaCompletionResult, type ChatMessage as BindingMessage} from "@fugood/llama.node";
import {ApiError} from "../../protocol/errors.ts";
import {checkModelFile, ModelFileError} from "../library/modelFile.ts";

/**
 * A vision model (a GGUF and its mmproj projector) on `@fugood/llama.node`, which binds llama.cpp with libmtmd;
 * node-llama-cpp 3.22, which serves every text request, cannot read images. Both bindings live in the engine
 * process: each loads its own llama.cpp copy with local symbols, and loading both and generating with each in
 * either order gave the same greedy text as either alone (docs/vision.md). The model file is read by both, but
 * mmap shares its pages, so the second copy costs a context and the projector, not the weights again.
 */
export type VisionEngineOptions = {
    modelPath: string,
    mmprojPath: string,
    /** Generation threads, as the text engine's (one core fewer than the machine, see defaultThreads). */
    threads: number,
    contextSize: number,
    /** Offload to a GPU when the binding's build has one (the CPU build ignores it). */
    gpu: boolean,
    /** Requests allowed to wait for the one vision slot before 429 `service_busy`. */
    maxQueue?: number
};

type BindingContext = Awaited<ReturnType<typeof loadModel>>;

/** The binding's context for the model with its projector initialised, or a ModelFileError naming which file failed. */
async function openContext(options: VisionEngineOptions): Promise<BindingContext> {
    const context = await loadModel({
        model: options.modelPath,
        n_ctx: options.contextSize,
        n_threads: options.threads,
        n_parallel: 1,
        n_gpu_layers: options.gpu ? 999 : 0
    }).catch((error: unknown) => {
        throw new ModelFileError(`cannot load the vision model ${options.modelPath}: ${(error as Error).message}`);
    });
    let ready = false;
    try {
        ready = context.initMultimodal({path: options.mmprojPath, use_gpu: options.gpu});
    } catch (error) {
        await context.release();
        throw new ModelFileError(`cannot load the projector ${options.mmprojPath}: ${(error as Error).message}`);
    }
    if (!ready || !context.getMultimodalSupport().vision) {
        await context.release();
        throw new ModelFileError(`the projector ${options.mmprojPath} does not fit ${options.modelPath} or holds no vision encoder (llama.cpp's libmtmd refused it)`);
    }
    return context;
}

/** Text that moves the binding's cache off an image: long enough that the call is never trivially fast. */
const cacheResetPrompt = "The quick brown fox jumps over the lazy dog. ".repeat(4);

export class VisionEngine {
    public readonly modelPath: string;
    public readonly mmprojPath: string;
    public readonly contextSize: number;
    private context: BindingContext;
    private readonly options: VisionEngineOptions;
    private readonly maxQueue: number;
    private tail: Promise<unknown> = Promise.resolve();
    private waiting = 0;
    private cacheHoldsMedia = false;

    private constructor(context: BindingContext, options: VisionEngineOptions) {
        this.context = context;
        this.options = options;
        this.modelPath = options.modelPath;
        this.mmprojPath = options.mmprojPath;
        this.contextSize = options.contextSize;
        this.maxQueue = options.maxQueue ?? 16;
    }

    public static async load(options: VisionEngineOptions): Promise<VisionEngine> {
        await checkModelFile(options.modelPath);
        await checkModelFile(options.mmprojPath);
        return new VisionEngine(await openContext(options), options);
    }

    /** The prompt text (images as media markers) and its images, rendered by the model's own chat template. */
    public formatChat(messages: BindingMessage[]): {prompt: string, media: string[]} {
        const formatted = this.context.getFormattedChat(messages, undefined, {jinja: true, add_generation_prompt: true});
        const prompt = formatted.type === "jinja" ? formatted.prompt : formatted.prompt;
        return {prompt, media: formatted.media_paths ?? []};
    }

    /** Tokens the prompt takes with its images, each image counted as the input tokens its projector writes. */
    public async countTokens(prompt: string, media: string[], signal: AbortSignal): Promise<{tokens: number, imageTokens: number[]}> {
        // Serialised with completions, and followed by a cache reset (see complete): tokenizing an image other than
        // the cached one and then completing with it was refused as busy (see runCompletion) in 3 runs of 3.
        const result = await this.exclusive(signal, async () => {
            if (media.length > 0) this.cacheHoldsMedia = true;
            return this.context.tokenize(prompt, {media_paths: media});
        });
        const bounds = [...result.chunk_pos, result.tokens.length];
        const imageTokens = result.chunk_pos_media.map((start) => bounds[bounds.indexOf(start) + 1] - start);
        return {tokens: result.tokens.length, imageTokens};
    }

    /**
     * Runs one completion on the single vision slot, after any running one (FIFO); past `maxQueue` waiting the
     * request is refused with the scheduler's 429. An aborted request stops its generation at the next token.
     */
    public async complete(options: LlamaCompletionOptions, signal: AbortSignal, onToken?: (text: string) => void): Promise<LlamaCompletionResult> {
        return this.exclusive(signal, async () => {
            // @fugood/llama.node 1.7.15 keeps the prompt's prefix cached; when it holds an image, a later call
            // reported the previous call's token probabilities, and a cached call counted one token too few. A text
            // completion first moves the cache off the image, so each call with images starts fresh (its images
            // are encoded again; docs/vision.md, "Limits"). It reads a few dozen tokens on purpose: see runCompletion.
            if (this.cacheHoldsMedia) await this.runCompletion({prompt: cacheResetPrompt, n_predict: 1, temperature: 0});
            this.cacheHoldsMedia = (options.media_paths ?? []).length > 0;
            const stop = () => this.context.stopCompletion();
            signal.addEventListener("abort", stop, {once: true});
            try {
                return await this.runCompletion(options, onToken);
            } finally {
                signal.removeEventListener("abort", stop);
            }
        });
    }

    /**
     * The next-token distribution after `prompt`, as the binding reports it: every vocabulary entry's probability
     * by its piece, from the sampler with nothing cut (temperature 1, top-k, top-p and min-p off) so they are the
     * softmax of the logits. The binding names tokens by piece, not id.
     */
    public async nextTokenProbabilities(prompt: string, media: string[], vocabularySize: number, signal: AbortSignal): Promise<{probabilities: Map<string, number>, evaluated: number}> {
        const result = await this.complete({prompt, media_paths: media, n_predict: 1, n_probs: vocabularySize, temperature: 1, top_k: 0, top_p: 1, min_p: 0, seed: 0}, signal);
        const probabilities = new Map<string, number>();
        // The binding appends each call's scores to those of earlier calls: this call's one token is the last entry.
        for (const {tok_str, prob} of result.completion_probabilities?.at(-1)?.probs ?? [])
            if (!probabilities.has(tok_str)) probabilities.set(tok_str, prob);
        // prompt_n: the tokens this call evaluated, the cached prefix (images included) left out.
        return {probabilities, evaluated: result.timings.prompt_n};
    }

    /**
     * One binding completion, reopening the context when the binding is stuck. Its completion() queues the work and
     * only then registers the callback that clears its "in progress" mark; a call that finishes before that (a few
     * cached tokens of a tiny model, measured 0.02 ms, on a loaded machine) leaves the mark set for good, and every
     * later completion is refused with "Another completion is in progress". Calls here are serialised
     * (exclusive), so that refusal can only mean the stuck mark: the context is reopened (the stuck one is left
     * unreleased: its release() would write to the finished, freed worker) and the call made again.
     */
    private async runCompletion(options: LlamaCompletionOptions, onToken?: (text: string) => void): Promise<LlamaCompletionResult> {
        const callback = onToken == null ? undefined : (token: {token: string}) => onToken(token.token);
        try {
            return await this.context.completion(options, callback);
        } catch (error) {
            if (!/Another completion is in progress/.test((error as Error).message)) throw error;
            console.warn(`vision engine: @fugood/llama.node left its context marked busy; reopening ${this.options.modelPath}`);
            this.context = await openContext(this.options);
            this.cacheHoldsMedia = false;
            return await this.context.completion(options, callback);
        }
    }

    public async dispose() {
        await this.tail.catch(() => undefined);
        await this.context.release();
    }

    private exclusive<T>(signal: AbortSignal, run: () => Promise<T>): Promise<T> {
        if (this.waiting >= this.maxQueue)
            return Promise.reject(new ApiError(429, "service_busy", `the local vision engine is busy: ${this.waiting} requests are already waiting; retry after 1 s`, {retryAfter: 1}));
        this.waiting++;
        const turn = this.tail.catch(() => undefined).then(() => {
            this.waiting--;
            signal.throwIfAborted();
            return run();
        });
        this.tail = turn.catch(() => undefined);
        return turn;
    }
}
