import type {GpuChoice} from "../engine/LocalEngine.ts";
import {describeDefaultThreads} from "../engine/threads.ts";
import {embeddedModelNote, embeddedModelPath, hasEmbeddedModel} from "../library/embeddedModel.ts";
import {parseArgs} from "node:util";
import type {GpuLayersChoice} from "../gpu/planModelLoad.ts";
import type {ServerOptions} from "../startServer.ts";
import {reasoningModelId} from "../../protocol/chat/parseChatRequest.ts";
import {modelIds} from "../../protocol/limits.ts";
import {catalog} from "../library/catalog.ts";
import {ModelLibrary} from "../library/ModelLibrary.ts";
import {findProjectorFor} from "../library/projectors.ts";
import type {ModelRole} from "../../protocol/gateway/contract.ts";
import {normaliseOrigin} from "../http/browserPolicy.ts";
import {engineKeyEnvVar} from "./engineKeyEnv.ts";
import {adminKeyEnvVar, databaseUrlEnvVar} from "./engineKeyEnv.ts";
import {isPostgresUrl} from "../service/postgres/databaseUrl.ts";
import {serviceDataDir} from "../../base/node/userDataDir.ts";

export class UsageError extends Error {}

/** `serve` options as given: without `--model`, the model library's default model is served (resolveServeModel). */
export type ServeArgs = Omit<ServerOptions, "modelPath"> & {modelPath?: string, modelsDir?: string, upstream?: UpstreamArgs};

/** `--upstream` and its options: the key is named by its environment variable and read in main.ts, off argv. */
export type UpstreamArgs = {baseUrl: string, model?: string, keyEnv?: string, tokenizerPath?: string};

/** Flags of the local engine, which mean nothing in front of an upstream (refused rather than silently ignored). */
const localEngineFlags = ["model", "mmproj", "models-dir", "decision-model", "reasoning-model", "threads", "gpu", "gpu-layers", "context-size", "parallel", "max-queue"];

const gpuChoices: GpuChoice[] = ["auto", "off", "cuda", "vulkan", "metal"];

export const serveUsage = `usage: svc-studio serve [--model <file.gguf>] [options]
  --model <file>         GGUF model to serve (default: the model library's default model, else the built-in stories260K)
  --models-dir <dir>     model library folder (default: $SVC_STUDIO_MODELS_DIR, else the user data folder)
  --host <host>          address to listen on (default 127.0.0.1)
  --port <port>          port (default 8080; 0 picks a free one)
  --api-key <key>        require Authorization: Bearer <key> (repeatable; $${engineKeyEnvVar} adds one kept off the command line)
  --cors-origins <a,b>   without a key: browser origins allowed besides loopback ones, e.g. http://app.example:3000
  --data-dir <dir>       service database folder: workspaces, keys, credits, usage (default: $SVC_STUDIO_DATA_DIR, else
                         the user data folder); once it holds a workspace, every request needs a workspace key (svc-studio admin)
  --database <url>       the service database on PostgreSQL instead, postgres://user@host:5432/db?sslmode=verify-full
                         (default: $${databaseUrlEnvVar}): several servers (fronts) share its ledger, keys and rate limits
  --front-name <name>    this server's front label on /metrics (default with --database: host name:port)
  --admin-key <key>      lets other machines use /admin/v1 and /metrics (default: loopback callers only; $${adminKeyEnvVar}
                         gives it kept off the command line, as the app does with a per-launch one)
  --key-activation-seconds <n>  a created or rotated key may fail for this long, as the hosted service's can (0-60, default 0)
  --threads <n>          generation threads (default ${describeDefaultThreads()})
  --mmproj <f>           vision projector (mmproj GGUF) of the --model file: chat, Responses and decisions read images
                         (default: a projector of the same name beside the model, as the library pairs them)
  --decision-model <f>   GGUF for svc-1-decision (default: the --model file)
  --reasoning-model <f>  GGUF for svc-1-reasoning, the reasoning-by-default variant (default: the --model file)
  --gpu <backend>        auto | off | cuda | vulkan | metal (default auto; see: svc-studio gpu)
  --gpu-layers <n>       layers on the GPU: a number, auto (what fits; default) or max
  --context-size <n>     tokens per sequence (default: the model's training context, at most 8192)
  --parallel <n>         concurrent sequences (default 1)
  --max-queue <n>        requests that may wait before 429 service_busy (default 16 per sequence)
  --upstream <url>       serve the API in front of an OpenAI-compatible engine (vLLM, SGLang, llama-server) at this base
                         URL, e.g. http://vllm:8000/v1, instead of a local model (the model options above do not apply)
  --upstream-model <n>   the upstream's model name (default: the first it lists at /models)
  --upstream-key-env <V> environment variable holding the upstream's API key (kept off the command line)
  --upstream-tokenizer <f>  GGUF copy of the upstream's model (vocabulary and chat template read only) for decisions;
                         default: the file llama-server reports in /props, when it is on this machine`;

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
            "cors-origins": {type: "string", multiple: true},
            "data-dir": {type: "string"},
            "database": {type: "string"},
            "front-name": {type: "string"},
            "admin-key": {type: "string"},
            "key-activation-seconds": {type: "string", default: "0"},
            "threads": {type: "string"},
            "gpu": {type: "string", default: "auto"},
            "context-size": {type: "string"},
            "mmproj": {type: "string"},
            "decision-model": {type: "string"},
            "reasoning-model": {type: "string"},
            "parallel": {type: "string", default: "1"},
            "max-queue": {type: "string"},
            "upstream": {type: "string"},
            "upstream-model": {type: "string"},
            "upstream-key-env": {type: "string"},
            "upstream-tokenizer": {type: "string"}
        }
    });
    const upstream = upstreamArgs(argv, values);
    if (!gpuChoices.includes(values.gpu as GpuChoice)) throw new UsageError(`--gpu must be one of ${gpuChoices.join(", ")}`);
    const parallel = integer("parallel", values.parallel, 1);
    return {
        modelPath: values.model,
        modelsDir: values["models-dir"],
        mmprojPath: values.mmproj,
        decisionModelPath: values["decision-model"],
        reasoningModelPath: values["reasoning-model"],
        host: values.host,
        port: integer("port", values.port, 0, 65535),
        apiKeys: values["api-key"] ?? [],
        corsOrigins: corsOrigins(values["cors-origins"] ?? []),
        dataDir: values["data-dir"] ?? serviceDataDir(),
        ...databaseArgs(values.database, values["front-name"]),
        adminKey: values["admin-key"],
        // Spec §8: the hosted service's window is up to one minute.
        keyActivationSeconds: integer("key-activation-seconds", values["key-activation-seconds"], 0, 60),
        threads: values.threads != null ? integer("threads", values.threads, 1) : undefined,
        gpu: values.gpu as GpuChoice,
        gpuLayers: gpuLayers(values["gpu-layers"]),
        contextSize: values["context-size"] != null ? integer("context-size", values["context-size"], 16) : undefined,
        parallel,
        maxQueue: values["max-queue"] != null ? integer("max-queue", values["max-queue"], 0) : undefined,
        ...(upstream != null ? {upstream} : {})
    };
}

function upstreamArgs(argv: string[], values: Record<string, string | boolean | string[] | undefined>): UpstreamArgs | undefined {
    const given = (name: string) => typeof values[name] === "string" ? values[name] : undefined;
    const baseUrl = given("upstream");
    if (baseUrl == null) {
        const stray = ["upstream-model", "upstream-key-env", "upstream-tokenizer"].find((name) => values[name] != null);
        if (stray != null) throw new UsageError(`--${stray} needs --upstream <url>`);
        return undefined;
    }
    if (!/^https?:\/\/[^/\s]+/.test(baseUrl) || !URL.canParse(baseUrl))
        throw new UsageError(`--upstream takes the engine's OpenAI base URL, e.g. http://vllm:8000/v1, got ${JSON.stringify(baseUrl)}`);
    const local = localEngineFlags.find((name) => argv.some((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`)));
    if (local != null) throw new UsageError(`--${local} sets up the local engine and does not apply with --upstream`);
    const keyEnv = given("upstream-key-env");
    if (keyEnv != null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(keyEnv)) throw new UsageError(`--upstream-key-env takes an environment variable's name, got ${JSON.stringify(keyEnv)}`);
    return {baseUrl, model: given("upstream-model"), keyEnv, tokenizerPath: given("upstream-tokenizer")};
}

/** `--database` (else the environment's URL) and `--front-name`, checked. */
export function databaseArgs(given: string | undefined, frontName: string | undefined): {databaseUrl?: string, frontName?: string} {
    const databaseUrl = given ?? (process.env[databaseUrlEnvVar]?.trim() || undefined);
    if (databaseUrl != null && !isPostgresUrl(databaseUrl))
        throw new UsageError(`--database takes a PostgreSQL URL, e.g. postgres://svc@db.internal:5432/svc?sslmode=verify-full, got ${given != null ? JSON.stringify(given) : `$${databaseUrlEnvVar}`}`);
    if (frontName != null && !/^[\w.:@-]{1,100}$/.test(frontName)) throw new UsageError(`--front-name takes letters, digits and . : @ _ -, got ${JSON.stringify(frontName)}`);
    return {...(databaseUrl != null ? {databaseUrl} : {}), ...(frontName != null ? {frontName} : {})};
}

function integer(name: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = Number(text);
    if (text == null || !/^\d+$/.test(text) || value < min || value > max)
        throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
    return value;
}

/** `--cors-origins a,b` (repeatable): each an http(s) origin, no path; `*` is what a key is for (spec §4), not this flag. */
function corsOrigins(texts: string[]): string[] {
    return texts.flatMap((text) => text.split(",")).map((part) => part.trim()).filter((part) => part !== "").map((part) => {
        const origin = normaliseOrigin(part);
        if (origin == null)
            throw new UsageError(`--cors-origins takes origins such as http://app.example:3000 (scheme, host, optional port), got ${JSON.stringify(part)}; ` +
                "to let every origin in, require a key with --api-key");
        return origin;
    });
}

function gpuLayers(text: string): GpuLayersChoice {
    if (text === "auto" || text === "max") return text;
    if (/^\d+$/.test(text)) return Number(text);
    throw new UsageError(`--gpu-layers must be a number of layers, auto or max, got ${JSON.stringify(text)}`);
}

/** `serve` without `--model` and an empty library: its message says exactly how to get a model. */
export class NoModelError extends Error {
    public constructor(message: string) {
        super(message);
        this.name = "NoModelError";
    }
}

/**
 * The model to serve: `--model`, else the library's default model, else the built-in model (and its `svc-1-decision` model when one is
 * assigned and no `--decision-model` is given). `note` says which library model was chosen.
 */
export async function resolveServeModel(args: ServeArgs): Promise<{options: ServerOptions, note?: string}> {
    const {modelsDir, modelPath, ...rest} = args;
    if (args.mmprojPath != null && modelPath == null) throw new UsageError("--mmproj is the projector of the --model file; pass both");
    if (modelPath != null) {
        const mmprojPath = args.mmprojPath ?? await findProjectorFor(modelPath);
        return {options: {...rest, modelPath, ...(mmprojPath != null ? {mmprojPath} : {})},
            ...(args.mmprojPath == null && mmprojPath != null ? {note: `vision projector ${mmprojPath} (beside the model, same name)`} : {})};
    }
    const library = new ModelLibrary(modelsDir);
    const chosen = await library.defaultModel();
    if (chosen == null) {
        if (!hasEmbeddedModel()) throw new NoModelError(noModelMessage(library.dir));
        return {options: {...rest, modelPath: embeddedModelPath}, note: embeddedModelNote};
    }
    // Roles assigned in the library serve their own model unless the command line names one.
    const notes: string[] = [];
    const roleModel = async (role: ModelRole, given: string | undefined) => {
        if (given != null) return given;
        const assigned = await library.modelForRole(role);
        if (assigned == null || assigned.id === chosen.id) return undefined;
        notes.push(`${assigned.id} for ${role}`);
        return assigned.path;
    };
    const decisionModelPath = await roleModel(modelIds.decision, args.decisionModelPath);
    const reasoningModelPath = await roleModel(reasoningModelId, args.reasoningModelPath);
    return {
        options: {...rest, modelPath: chosen.path, decisionModelPath, reasoningModelPath, ...(chosen.mmproj != null ? {mmprojPath: library.pathOf(chosen.mmproj)} : {})},
        note: [`model library ${library.dir}: serving ${chosen.id} (default model${chosen.mmproj != null ? `, vision projector ${chosen.mmproj}` : ""})`, ...notes].join(", ")
    };
}

export function noModelMessage(dir: string): string {
    const width = Math.max(...catalog.map((model) => model.uri.length));
    return [
        `no model to serve: pass --model <file.gguf>, or download one into the model library (${dir}):`,
        ...catalog.map((model) => `  npm run pull -- ${model.uri.padEnd(width)}   # ${model.name}, ${model.sizeLabel}, for ${model.roles.join(", ")}`),
        "then run serve again: the first model pulled becomes the default (list the library with: svc-studio models)."
    ].join("\n");
}
