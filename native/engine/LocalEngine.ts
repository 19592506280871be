import {randomUUID, randomInt} from "node:crypto";

import {ApiError} from "../../protocol/errors.ts";
import {getLlama, LlamaLogLevel, resolveChatWrapper, type ChatWrapper, type Llama, type LlamaContext, type LlamaModel} from "node-llama-cpp";
import {planModelLoad, type GpuLayersChoice, type ModelLoadPlan} from "../gpu/planModelLoad.ts";
import {checkModelFile, ModelFileError} from "../library/modelFile.ts";
import {SequenceScheduler} from "./SequenceScheduler.ts";
import {defaultThreads} from "./threads.ts";
import {DecodeGathering} from "./decodeGathering.ts";
import {InlineDecode} from "./inlineDecode.ts";
import {longestTokenBytes, TokenLimitError} from "./promptTokens.ts";
import type {SamplingParams} from "../../protocol/validation.ts";
import type {CompletionUsage} from "../../protocol/completions.ts";

/** OpenAI-style object ids: a prefix and 24 random hex characters. */
export function makeId(prefix: string): string {
    return `${prefix}-${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

export const unixSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Usage of spec 2.3 for chat and legacy completions. `cached_tokens` is the prompt prefix found in the sequence's
 * KV cache; the last prompt token is always evaluated again (its logits start generation), so it never counts.
 */
export function makeUsage({promptTokens, reusablePrefix, completionTokens}: {promptTokens: number, reusablePrefix: number, completionTokens: number}): CompletionUsage {
    return {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: {cached_tokens: Math.max(0, Math.min(reusablePrefix, promptTokens - 1))}
    };
}

/** OpenAI sampling fields to node-llama-cpp's generation options. */
export function toGenerationOptions(sampling: SamplingParams, {choiceIndex = 0}: {choiceIndex?: number} = {}) {
    const penalised = (sampling.presence_penalty ?? 0) !== 0 || (sampling.frequency_penalty ?? 0) !== 0;
    return {
        // The OpenAI default temperature is 1; node-llama-cpp's is 0 (greedy).
        temperature: sampling.temperature ?? 1,
        topP: sampling.top_p,
        // Each of `n` choices gets its own seed so seeded choices differ from each other yet stay reproducible.
        // Unseeded requests need a random one: node-llama-cpp's default is the current second, which made every
        // choice of `n` and every request within the same second sample the same text.
        seed: sampling.seed != null ? toUint32(sampling.seed + choiceIndex) : randomInt(0, 2 ** 32),
        customStopTriggers: sampling.stop,
        repeatPenalty: penalised
            ? {penalty: 1, presencePenalty: sampling.presence_penalty ?? 0, frequencyPenalty: sampling.frequency_penalty ?? 0}
            : false as const
    };
}

/** llama.cpp seeds are unsigned 32-bit: wrap rather than clamp, so negative and large seeds stay distinct. */
function toUint32(seed: number): number {
    return ((seed % 2 ** 32) + 2 ** 32) % 2 ** 32;
}

/**
 * Spec §7 causes 2, 3 and 7 on the local engine, whose window is the loaded context: an explicit budget larger
 * than the window is `max_output_tokens_exceeded`; a prompt plus budget past the window is `invalid_request`.
 * Nothing is ever truncated silently. Only a budget the client did not choose (the chat default) is fitted to
 * the room the prompt leaves, as a local server with a small context would otherwise refuse every default request.
 */
export function checkOutputBudget({promptTokens, atLeast = false, budget, explicit, contextSize, field}: {
    promptTokens: number,
    /** `promptTokens` is a lower bound (fewestTokens, or tokenizing stopped at the limit), not the exact count. */
    atLeast?: boolean,
    budget: number,
    explicit: boolean,
    contextSize: number,
    field: string
}): number {
    if (explicit && budget > contextSize)
        throw new ApiError(400, "max_output_tokens_exceeded",
            `${field} is ${budget}, above this model's output limit of ${contextSize} tokens (the loaded context size)`);
    const prompt = `${atLeast ? "at least " : ""}${promptTokens} tokens`;
    const room = contextSize - promptTokens;
    if (room <= 0)
        throw new ApiError(400, "invalid_request",
            `the prompt is ${prompt}, which leaves no room in the ${contextSize}-token context window; shorten it`);
    if (!explicit) return Math.min(budget, room);
    if (promptTokens + budget > contextSize)
        throw new ApiError(400, "invalid_request",
            `the prompt (${prompt}) plus ${field} (${budget}) exceeds the ${contextSize}-token context window; ` +
            (atLeast ? `shorten the prompt or lower ${field}` : `lower ${field} to at most ${room} or shorten the prompt`));
    return budget;
}

/** What checkOutputBudget checks a prompt against: the budget as requested and the window. */
export type OutputWindow = {budget: number, explicit: boolean, contextSize: number, field: string};

/**
 * Tokenizes a prompt that must fit `window`, refusing it with checkOutputBudget's 400 as soon as tokenizing passes
 * the most prompt tokens the budget leaves (spec §7 causes 3 and 7; nothing is truncated). `tokenize` gets that
 * limit and must throw TokenLimitError past it. Callers first refuse what cannot fit by its byte count alone
 * (checkOutputBudget with fewestTokens and `atLeast`), which costs no tokenizing at all.
 */
export async function tokenizeForWindow<T>(window: OutputWindow, tokenize: (limit: number) => Promise<T>): Promise<T> {
    try {
        return await tokenize(window.explicit ? window.contextSize - window.budget : window.contextSize - 1);
    } catch (error) {
        if (error instanceof TokenLimitError) checkOutputBudget({...window, promptTokens: error.atLeast, atLeast: true});
        throw error;
    }
}

export type GpuChoice = "auto" | "off" | "cuda" | "vulkan" | "metal";

export type LocalEngineOptions = {
    modelPath: string,
    /** Evaluation threads; default `defaultThreads()`, the machine's cores less one (node-llama-cpp's own default is far slower on small machines). */
    threads?: number,
    gpu?: GpuChoice,
    /** Layers offloaded to the GPU: a count, `auto` (what fits in free VRAM; default) or `max` (all). */
    gpuLayers?: GpuLayersChoice,
    /** Tokens per sequence; defaults to the model's training context capped at 8192. */
    contextSize?: number,
    /** Concurrent sequences of the one context. */
    parallel?: number,
    /** Requests allowed to wait for a sequence before 429 `service_busy`. */
    maxQueue?: number,
    /** Told the memory estimate before the weights load (the CLI prints it and its warnings). */
    onMemoryPlan?: (plan: ModelLoadPlan, modelPath: string, gpu: string | false) => void
};

export type EngineInfo = {
    modelPath: string,
    gpu: string | false,
    threads: number,
    contextSize: number,
    parallel: number,
    trainContextSize: number,
    chatWrapper: string,
    /** Layers actually on the GPU, of `totalLayers`. */
    gpuLayers: number,
    totalLayers: number,
    /** The memory estimate made before loading, with its warnings (see native/gpu/planModelLoad.ts). */
    memory: ModelLoadPlan
};

const defaultContextCap = 8192;

/**
 * The context's flash attention. Off on CPU, where llama.cpp's kernel makes small batches over a long cached prefix
 * 2-20x slower (measured on decision suffixes and single-token generation steps). With a GPU, llama.cpp's "auto": on
 * where the GPU runs the op (the faster kernel there), off where it cannot and would send every layer's attention back
 * to the CPU. Forced on, stories260K's 8-wide heads read a 512-token prompt at 4,954 tok/s on an H100 against 252,860
 * with it off, and generated at 2,293 against 5,233 tok/s (llama-bench; docs/performance.md, "On a GPU").
 */
export function flashAttentionFor(gpu: Llama["gpu"]): false | "auto" {
    return gpu === false ? false : "auto";
}

/** The loaded model, its context of parallel sequences and their scheduler: what every endpoint generates with. */
export class LocalEngine {
    public readonly llama: Llama;
    public readonly model: LlamaModel;
    public readonly context: LlamaContext;
    public readonly scheduler: SequenceScheduler;
    public readonly chatWrapper: ChatWrapper;
    public readonly info: EngineInfo;
    /** Which decodes and samplings run on the main thread, and how long they took (benchmarks read the totals). */
    public readonly decodeTiming: InlineDecode;

    private constructor(llama: Llama, model: LlamaModel, context: LlamaContext, scheduler: SequenceScheduler, decodeTiming: InlineDecode, info: EngineInfo) {
        this.llama = llama;
        this.decodeTiming = decodeTiming;
        this.model = model;
        this.context = context;
        this.scheduler = scheduler;
        this.chatWrapper = resolveChatWrapper(model);
        this.info = {...info, chatWrapper: this.chatWrapper.wrapperName};
    }

    public static async load(options: LocalEngineOptions): Promise<LocalEngine> {
        await checkModelFile(options.modelPath);
        const threads = options.threads ?? defaultThreads();
        const parallel = options.parallel ?? 1;
        const llama = await getLlama({
            gpu: options.gpu == null || options.gpu === "auto" ? "auto" : options.gpu === "off" ? false : options.gpu,
            build: "never",
            maxThreads: threads,
            logLevel: LlamaLogLevel.error
        });
        // Estimated before any weight is read, so a model that will not fit is explained, not just slow or failing.
        const memory = await planModelLoad(llama, {modelPath: options.modelPath, gpuLayers: options.gpuLayers ?? "auto",
            contextSize: options.contextSize, parallel, contextCap: defaultContextCap}).catch(async (error: unknown) => {
            await llama.dispose();
            throw new ModelFileError(`cannot read the model file ${options.modelPath}: ${(error as Error).message}`);
        });
        options.onMemoryPlan?.(memory, options.modelPath, llama.gpu);
        const model = await llama.loadModel({modelPath: options.modelPath, gpuLayers: options.gpuLayers ?? "auto"}).catch(async (error: unknown) => {
            await llama.dispose();
            // A file that passed the header check but that llama.cpp cannot load is still a bad model file: one clear line.
            throw new ModelFileError(`cannot load the model file ${options.modelPath}: ${(error as Error).message}`);
        });
        // Worked out now, not on the first request: for a 150,000-token vocabulary it takes about 0.2 s.
        longestTokenBytes(model);
        const contextSize = memory.contextSize;
        // The scheduler needs the context's sequences, and the context the gathering schedule: it reads the leases late.
        const leases: {scheduler?: SequenceScheduler} = {};
        const gathering = new DecodeGathering({leasedSequenceIds: () => leases.scheduler?.leasedSequenceIds() ?? new Set()});
        const decodeTiming = new InlineDecode();
        const context = await model.createContext({
            contextSize,
            sequences: parallel,
            threads: {ideal: threads, min: 1},
            flashAttention: flashAttentionFor(llama.gpu),
            batching: {dispatchSchedule: gathering.schedule, decodeTiming}
        });
        const sequences = Array.from({length: parallel}, () => context.getSequence());
        const scheduler = leases.scheduler = new SequenceScheduler(sequences, {maxQueue: options.maxQueue ?? parallel * 16});
        return new LocalEngine(llama, model, context, scheduler, decodeTiming, {
            modelPath: options.modelPath,
            gpu: llama.gpu,
            threads,
            contextSize: context.contextSize,
            parallel,
            trainContextSize: model.trainContextSize,
            chatWrapper: "",
            gpuLayers: model.gpuLayers,
            totalLayers: memory.totalLayers,
            memory
        });
    }

    public async dispose() {
        await this.context.dispose();
        await this.model.dispose();
        await this.llama.dispose();
    }
}
