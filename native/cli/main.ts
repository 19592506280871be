import path from "node:path";
import {explainCpuFallback} from "../gpu/detectGpu.ts";
import {describeModelLoadPlan} from "../gpu/planModelLoad.ts";
import {ModelFileError} from "../library/modelFile.ts";
import {DownloadError} from "../download/downloadModel.ts";
import {ModelLibraryError} from "../library/ModelLibrary.ts";
import {startServer} from "../startServer.ts";
import {runUpstreamServe} from "../upstream/runUpstreamServe.ts";
import {parseServeArgs, serveUsage, UsageError, NoModelError, resolveServeModel} from "./serveArgs.ts";
import {runGpu, runModels, runPull} from "./modelCommands.ts";
import {takeEngineKey, takeSecretEnv} from "./engineKeyEnv.ts";
import {runAdmin} from "./admin.ts";
import {adminKeyEnvVar} from "./engineKeyEnv.ts";
import {watchParentPipe} from "./parentPipe.ts";
import {ServiceStoreError} from "../service/store.ts";
import {ApiError} from "../../protocol/errors.ts";
import {MoneyFormatError} from "../../protocol/admin/money.ts";

const usage = `usage: svc-studio <command>
  serve [--model <file.gguf>] [options] serve the svc API on localhost (see: svc-studio serve --help)
  serve --upstream <url> [options]      serve the svc API in front of an OpenAI-compatible engine (vLLM, SGLang, llama-server)
  pull <url | hf:user/repo/file.gguf>   download a model into the model library (see: svc-studio pull --help)
  models                                list the model library; models default <file> chooses the default
  gpu [--json]                          which GPU backend the engine can use, and why not
  admin <command>                       workspaces, keys, credits, prices, rate limits, usage (see: svc-studio admin --help)
  eval <experiment file> [options]      run an experiment file and check its metrics (see: svc-studio eval --help)
  import promptfoo <config> [options]   a promptfoo config as an experiment file (see: svc-studio import --help)
  export promptfoo <experiment file>    an experiment file as a promptfoo config (see: svc-studio export --help)`;

/** Set once the server listens: how a signal or the parent's end shuts it down. */
let stopServer: ((reason: string) => Promise<void>) | undefined;

async function serve(argv: string[]) {
    if (argv.includes("--help") || argv.includes("-h")) return console.log(serveUsage);
    const args = parseServeArgs(argv);
    // Started by the app: exit with it, even while the model is still loading.
    watchParentPipe(process.env, () => {
        if (stopServer != null) void stopServer("the app that started this engine has ended");
        else process.exit(0);
    });
    // The app's per-launch key arrives by environment (engineKeyEnv.ts) and joins any --api-key.
    const engineKey = takeEngineKey(process.env);
    if (engineKey != null) args.apiKeys = [...args.apiKeys ?? [], engineKey];
    // The admin key, too, may come by environment, off the command line; --admin-key wins. The app hands its engine a
    // per-launch admin key this way, so the gateway is the engine's only admin and no web page on the machine (a
    // loopback peer too) can reach /admin/v1 or /metrics.
    const adminKey = takeSecretEnv(process.env, adminKeyEnvVar);
    args.adminKey ??= adminKey;
    if (args.upstream != null) return stopOnSignals(await runUpstreamServe(args, args.upstream));
    const {options, note} = await resolveServeModel(args);
    if (note != null) console.log(note);
    const server = await startServer({
        ...options,
        onMemoryPlan: (plan, modelPath, gpu) => {
            for (const line of describeModelLoadPlan(plan, gpu))
                (line.startsWith("warning:") ? console.warn : console.log)(line.replace(/^(\w+): /, `$1 (${path.basename(modelPath)}): `));
        }
    });
    const {info} = server.engine;
    console.log(`model ${info.modelPath} (${info.chatWrapper} template), ${info.gpu === false ? "CPU" : info.gpu}, ` +
        `${info.threads} threads, context ${info.contextSize} x ${info.parallel} sequences`);
    if (info.gpu === false && (options.gpu ?? "auto") === "auto") {
        const why = await explainCpuFallback();
        if (why != null) console.warn(`warning: ${why}`);
    }
    stopOnSignals(server);
}

/** Prints where the server listens and closes it on SIGINT/SIGTERM (a local engine or an upstream front alike). */
function stopOnSignals(server: {url: string, service?: {databasePath: string, mode: string}, close(): Promise<void>}) {
    if (server.service != null)
        console.log(`service database ${server.service.databasePath}: ${server.service.mode === "workspaces"
            ? "workspace mode, every request needs a workspace key" : `no workspace yet (${server.service.mode}); svc-studio admin creates one`}`);
    console.log(`listening on ${server.url}`);

    let stopping = false;
    stopServer = async (reason: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`${reason}: shutting down`);
        await server.close();
        process.exit(0);
    };
    process.on("SIGINT", () => void stopServer?.("SIGINT"));
    process.on("SIGTERM", () => void stopServer?.("SIGTERM"));
}

async function main(argv: string[]) {
    const [command, ...rest] = argv;
    if (command === "serve") return serve(rest);
    if (command === "pull") return runPull(rest);
    if (command === "models") return runModels(rest);
    if (command === "gpu") return runGpu(rest);
    if (command === "admin") return runAdmin(rest);
    console.error(usage);
    process.exit(command == null || command === "--help" ? 0 : 2);
}

main(process.argv.slice(2)).catch((error) => {
    // Expected faults (a bad flag, a bad model file) are one clear line; anything else keeps its stack.
    if (error instanceof UsageError || error instanceof ModelFileError || error instanceof DownloadError || error instanceof ModelLibraryError
        || error instanceof NoModelError || error instanceof ServiceStoreError || error instanceof MoneyFormatError
        // The service database out of reach (PostgreSQL down, a wrong host): its message says so.
        || (error instanceof ApiError && error.code === "service_unavailable")
        || (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS_"))
        console.error(`svc-studio: ${(error as Error).message}`);
    else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
        console.error(`svc-studio: the address is already in use: ${(error as Error).message}`);
    else console.error(error);
    process.exit(1);
});
