import os from "node:os";
import {getLlama, LlamaLogLevel, resolveChatWrapper, type ChatWrapper, type Llama, type LlamaContext, type LlamaModel} from "node-llama-cpp";
import {planModelLoad, type GpuLayersChoice, type ModelLoadPlan} from "../gpu/planModelLoad.ts";
import {checkModelFile, ModelFileError} from "../models/checkModelFile.ts";
import {SequenceScheduler} from "./SequenceScheduler.ts";

export type GpuChoice = "auto" | "off" | "cuda" | "vulkan" | "metal";

export type LocalEngineOptions = {
    modelPath: string,
    /** Evaluation threads; defaults to the machine's cores (node-llama-cpp's own default is far slower on small machines). */
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

/** The loaded model, its context of parallel sequences and their scheduler: what every endpoint generates with. */
export class LocalEngine {
    public readonly llama: Llama;
    public readonly model: LlamaModel;
    public readonly context: LlamaContext;
    public readonly scheduler: SequenceScheduler;
    public readonly chatWrapper: ChatWrapper;
    public readonly info: EngineInfo;

    private constructor(llama: Llama, model: LlamaModel, context: LlamaContext, scheduler: SequenceScheduler, info: EngineInfo) {
        this.llama = llama;
        this.model = model;
        this.context = context;
        this.scheduler = scheduler;
        this.chatWrapper = resolveChatWrapper(model);
        this.info = {...info, chatWrapper: this.chatWrapper.wrapperName};
    }

    public static async load(options: LocalEngineOptions): Promise<LocalEngine> {
        await checkModelFile(options.modelPath);
        const threads = options.threads ?? Math.max(1, os.availableParallelism());
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
        const contextSize = memory.contextSize;
        const context = await model.createContext({
            contextSize,
            sequences: parallel,
            threads: {ideal: threads, min: 1},
            // On CPU llama.cpp's flash-attention kernel makes small batches over a long cached prefix 2-20x slower
            // (measured on decision suffixes and single-token generation steps); on a GPU it is the faster kernel.
            flashAttention: llama.gpu !== false
        });
        const sequences = Array.from({length: parallel}, () => context.getSequence());
        const scheduler = new SequenceScheduler(sequences, {maxQueue: options.maxQueue ?? parallel * 16});
        return new LocalEngine(llama, model, context, scheduler, {
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
