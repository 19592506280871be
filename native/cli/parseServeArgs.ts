import os from "node:os";
import {parseArgs} from "node:util";
import type {GpuChoice} from "../engine/LocalEngine.ts";
import type {ServerOptions} from "../server/startServer.ts";

export class UsageError extends Error {}

const gpuChoices: GpuChoice[] = ["auto", "off", "cuda", "vulkan", "metal"];

export const serveUsage = `usage: svc-studio serve --model <file.gguf> [options]
  --model <file>         GGUF model to serve (required)
  --host <host>          address to listen on (default 127.0.0.1)
  --port <port>          port (default 8080; 0 picks a free one)
  --api-key <key>        require Authorization: Bearer <key> (repeatable)
  --threads <n>          evaluation threads (default: this machine's ${os.availableParallelism()} cores)
  --decision-model <f>   GGUF for svc-1-decision (default: the --model file)
  --gpu <backend>        auto | off | cuda | vulkan | metal (default auto)
  --context-size <n>     tokens per sequence (default: the model's training context, at most 8192)
  --parallel <n>         concurrent sequences (default 1)
  --max-queue <n>        requests that may wait before 429 service_busy (default 16 per sequence)`;

/** `serve` options from argv; every value is checked here so a typo is one clear line, not a stack trace. */
export function parseServeArgs(argv: string[]): ServerOptions {
    const {values} = parseArgs({
        args: argv,
        strict: true,
        options: {
            "model": {type: "string"},
            "host": {type: "string", default: "127.0.0.1"},
            "port": {type: "string", default: "8080"},
            "api-key": {type: "string", multiple: true},
            "threads": {type: "string"},
            "gpu": {type: "string", default: "auto"},
            "context-size": {type: "string"},
            "decision-model": {type: "string"},
            "parallel": {type: "string", default: "1"},
            "max-queue": {type: "string"}
        }
    });
    if (values.model == null) throw new UsageError("--model <file.gguf> is required");
    if (!gpuChoices.includes(values.gpu as GpuChoice)) throw new UsageError(`--gpu must be one of ${gpuChoices.join(", ")}`);
    const parallel = integer("parallel", values.parallel, 1);
    return {
        modelPath: values.model,
        decisionModelPath: values["decision-model"],
        host: values.host,
        port: integer("port", values.port, 0, 65535),
        apiKeys: values["api-key"] ?? [],
        threads: values.threads != null ? integer("threads", values.threads, 1) : undefined,
        gpu: values.gpu as GpuChoice,
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
