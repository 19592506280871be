import os from "node:os";
import {getLlama, LlamaLogLevel, resolveChatWrapper, type ChatWrapper, type Llama, type LlamaContext, type LlamaModel} from "node-llama-cpp";
import {checkModelFile} from "../models/checkModelFile.ts";
import {SequenceScheduler} from "./SequenceScheduler.ts";

export type GpuChoice = "auto" | "off" | "cuda" | "vulkan" | "metal";

export type LocalEngineOptions = {
    modelPath: string,
    /** Evaluation threads; defaults to the machine's cores (node-llama-cpp's own default is far slower on small machines). */
    threads?: number,
    gpu?: GpuChoice,
    /** Tokens per sequence; defaults to the model's training context capped at 8192. */
    contextSize?: number,
    /** Concurrent sequences of the one context. */
    parallel?: number,
    /** Requests allowed to wait for a sequence before 429 `service_busy`. */
    maxQueue?: number
};

export type EngineInfo = {
    modelPath: string,
    gpu: string | false,
    threads: number,
    contextSize: number,
    parallel: number,
    trainContextSize: number,
    chatWrapper: string
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
        const model = await llama.loadModel({modelPath: options.modelPath});
        const contextSize = options.contextSize ?? Math.min(model.trainContextSize, defaultContextCap);
        const context = await model.createContext({contextSize, sequences: parallel, threads: {ideal: threads, min: 1}});
        const sequences = Array.from({length: parallel}, () => context.getSequence());
        const scheduler = new SequenceScheduler(sequences, {maxQueue: options.maxQueue ?? parallel * 16});
        return new LocalEngine(llama, model, context, scheduler, {
            modelPath: options.modelPath,
            gpu: llama.gpu,
            threads,
            contextSize: context.contextSize,
            parallel,
            trainContextSize: model.trainContextSize,
            chatWrapper: ""
        });
    }

    public async dispose() {
        await this.context.dispose();
        await this.model.dispose();
        await this.llama.dispose();
    }
}
