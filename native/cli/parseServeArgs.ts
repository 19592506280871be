import os from "node:os";
import {parseArgs} from "node:util";
import type {GpuChoice} from "../engine/LocalEngine.ts";
import type {GpuLayersChoice} from "../gpu/planModelLoad.ts";
import type {ServerOptions} from "../server/startServer.ts";

export class UsageError extends Error {}

/** `serve` options as given: without `--model`, the model library's default model is served (resolveServeModel). */
export type ServeArgs = Omit<ServerOptions, "modelPath"> & {modelPath?: string, modelsDir?: string};

const gpuChoices: GpuChoice[] = ["auto", "off", "cuda", "vulkan", "metal"];

export const serveUsage = `usage: svc-studio serve [--model <file.gguf>] [options]
  --model <file>         GGUF model to serve (default: the model library's default model)
  --models-dir <dir>     model library folder (default: $SVC_STUDIO_MODELS_DIR, else the user data folder)
  --host <host>          address to listen on (default 127.0.0.1)
  --port <port>          port (default 8080; 0 picks a free one)
  --api-key <key>        require Authorization: Bearer <key> (repeatable)
  --threads <n>          evaluation threads (default: this machine's ${os.availableParallelism()} cores)
  --decision-model <f>   GGUF for svc-1-decision (default: the --model file)
  --reasoning-model <f>  GGUF for svc-1-reasoning, the reasoning-by-default variant (default: the --model file)
  --gpu <backend>        auto | off | cuda | vulkan | metal (default auto; see: svc-studio gpu)
  --gpu-layers <n>       layers on the GPU: a number, auto (what fits; default) or max
  --context-size <n>     tokens per sequence (default: the model's training context, at most 8192)
  --parallel <n>         concurrent sequences (default 1)
  --max-queue <n>        requests that may wait before 429 service_busy (default 16 per sequence)`;

/** `serve` options from argv; every value is checked here so a typo is one clear line, not a stack trace. */
export function parseServeArgs(argv: string[]): ServeArgs {
    const {values} = parseArgs({
        args: argv,
        strict: true,
        options: {
            "model": {type: "string"},
            "models-dir": {type: "string"},
            "gpu-layers": {type: "string", default: "auto"},
            "host": {type: "string", default: "127.0.0.1"},
            "port": {type: "string", default: "8080"},
            "api-key": {type: "string", multiple: true},
            "threads": {type: "string"},
            "gpu": {type: "string", default: "auto"},
            "context-size": {type: "string"},
            "decision-model": {type: "string"},
            "reasoning-model": {type: "string"},
            "parallel": {type: "string", default: "1"},
            "max-queue": {type: "string"}
        }
    });
    if (!gpuChoices.includes(values.gpu as GpuChoice)) throw new UsageError(`--gpu must be one of ${gpuChoices.join(", ")}`);
    const parallel = integer("parallel", values.parallel, 1);
    return {
        modelPath: values.model,
        modelsDir: values["models-dir"],
        decisionModelPath: values["decision-model"],
        reasoningModelPath: values["reasoning-model"],
        host: values.host,
        port: integer("port", values.port, 0, 65535),
        apiKeys: values["api-key"] ?? [],
        threads: values.threads != null ? integer("threads", values.threads, 1) : undefined,
        gpu: values.gpu as GpuChoice,
        gpuLayers: gpuLayers(values["gpu-layers"]),
        contextSize: values["context-size"] != null ? integer("context-size", values["context-size"], 16) : undefined,
        parallel,
        maxQueue: values["max-queue"] != null ? integer("max-queue", values["max-queue"], 0) : undefined
    };
}

function integer(name: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = Number(text);
    if (text == null || !/^\d+$/.test(text) || value < min || value > max)
        throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
    return value;
}

function gpuLayers(text: string): GpuLayersChoice {
    if (text === "auto" || text === "max") return text;
    if (/^\d+$/.test(text)) return Number(text);
    throw new UsageError(`--gpu-layers must be a number of layers, auto or max, got ${JSON.stringify(text)}`);
}
