// `npm run web`: the gateway and the local engine without Electron, for a browser on this machine.
import {defaultThreads, describeDefaultThreads} from "../native/engine/threads.ts";
import path from "node:path";
import {parseArgs} from "node:util";
import {userDataDir} from "../base/node/userDataDir.ts";
import {embeddedModelNote, embeddedModelPath} from "../native/library/embeddedModel.ts";
import {ModelLibrary} from "../native/library/ModelLibrary.ts";
import {ConnectionStore, seedEnvRemote} from "./connections/ConnectionStore.ts";
import {EngineSupervisor, type EngineSupervisorOptions} from "./engine/EngineSupervisor.ts";
import {firstEnginePort} from "./engine/enginePort.ts";
import {Gateway} from "./gateway/Gateway.ts";
import {WebKeyStore} from "./secrets/webKeyStore.ts";
import {lowestEnginePort} from "../protocol/gateway/contract.ts";

const usage = `usage: npm run web -- [options]
  --port <n>           gateway port (default 0: a free one, printed at start)
  --engine-port <n>    the local engine's own port, for scripts and View code, for this launch (default: the one saved in
                       --data-dir, which the Engine screen changes; at the first launch the first free port from ${firstEnginePort},
                       then kept); 0: a free port at every start
  --model <file.gguf>  model for the local engine (default: $SVC_MODEL, else the library's default model, else the built-in stories260K)
  --models-dir <dir>   model library (default: $SVC_STUDIO_MODELS_DIR, else the user data folder)
  --idle-unload <min>  stop the engine after this many idle minutes (default 0: never); the next request reloads it
  --threads <n>        engine threads (default ${describeDefaultThreads()})
  --gpu <backend>      auto | off | cuda | vulkan | metal (default auto)
  --context-size <n>   tokens per sequence
  --parallel <n>       concurrent sequences
  --renderer <dir>     built renderer to serve (default renderer/dist)
  --data-dir <dir>     the app's saved data: settings, question sets, run history, scoring jobs
                       (default: web-app in the user data folder; kept across launches whatever the port)
  --browser-profile <dir>  the browser's profile folder an earlier version of the app ran in: its data, kept in the
                       page's storage of each http://127.0.0.1 origin, is moved in once
Remote connection: set SVC_REMOTE_BASE_URL and SVC_REMOTE_API_KEY (the key stays in this process).`;

async function main(argv: string[]) {
    const {values} = parseArgs({
        args: argv,
        strict: true,
        options: {
            "port": {type: "string", default: "0"},
            "engine-port": {type: "string"},
            "model": {type: "string"},
            "models-dir": {type: "string"},
            "idle-unload": {type: "string", default: "0"},
            "threads": {type: "string"},
            "gpu": {type: "string", default: "auto"},
            "context-size": {type: "string"},
            "parallel": {type: "string"},
            "renderer": {type: "string"},
            "data-dir": {type: "string"},
            "browser-profile": {type: "string"},
            "help": {type: "boolean", short: "h"}
        }
    });
    if (values.help) return console.log(usage);

    if (!gpuChoices.includes(values.gpu as GpuChoice)) return fail(`--gpu must be one of ${gpuChoices.join(", ")}`);
    const library = new ModelLibrary(values["models-dir"]);
    const givenModel = values.model ?? (process.env.SVC_MODEL?.trim() || (await library.defaultModel())?.path);
    if (givenModel == null) console.log(`svc-studio: ${embeddedModelNote}`);
    const modelPath = givenModel ?? embeddedModelPath;
    const supervisor = new EngineSupervisor({
        modelPath,
        threads: integer("threads", values.threads) ?? defaultThreads(),
        gpu: values.gpu as GpuChoice,
        contextSize: integer("context-size", values["context-size"]),
        parallel: integer("parallel", values.parallel)
    });
    const appDataDir = values["data-dir"] != null ? path.resolve(values["data-dir"]) : path.join(userDataDir(), "web-app");
    const connections = ConnectionStore.inMemory();
    // The app's workspace key survives a restart (kept in the data folder); the env remote's key stays in memory.
    const vault = await WebKeyStore.open(appDataDir);
    await seedEnvRemote(connections, vault, process.env);
    const gateway = await Gateway.start({mode: "web", supervisor, connections, vault, port: integer("port", values.port), rendererDir: values.renderer,
        library, lifecycle: {autoStart: true, idleUnloadMinutes: integer("idle-unload", values["idle-unload"])},
        appDataDir, enginePort: port("engine-port", values["engine-port"]),
        browserProfileDir: values["browser-profile"] == null ? undefined : path.resolve(values["browser-profile"])});

    let stopping = false;
    const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`${signal}: stopping the engine and the gateway`);
        await gateway.close();
        process.exit(0);
    };
    process.on("SIGINT", () => void stop("SIGINT"));
    process.on("SIGTERM", () => void stop("SIGTERM"));

    // The address with the launch token: opening it signs the browser in (a session cookie) and drops the token from the address.
    console.log(`Svc Studio web: ${gateway.signInUrl}`);
    console.log(`saved data: ${appDataDir}`);
    supervisor.on("status", (status) => {
        if (status.status === "crashed") console.error(`engine: ${status.error}`);
    });
    try {
        await supervisor.start();
        console.log(`engine: running ${modelPath} at ${supervisor.status().url}`);
    } catch (error) {
        // The page stays up: it shows the failure and can start the engine on another model.
        console.error(`engine: could not start: ${(error as Error).message}`);
    }
}

type GpuChoice = NonNullable<EngineSupervisorOptions["gpu"]>;
const gpuChoices: GpuChoice[] = ["auto", "off", "cuda", "vulkan", "metal"];

function integer(name: string, text: string | undefined): number | undefined {
    if (text == null) return undefined;
    if (!/^\d+$/.test(text)) fail(`--${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
    return Number(text);
}

/** A port flag: 0 (a free one) or one that needs no administrator rights. */
function port(name: string, text: string | undefined): number | undefined {
    const value = integer(name, text);
    if (value != null && value !== 0 && (value < lowestEnginePort || value > 65535)) fail(`--${name} must be 0 or ${lowestEnginePort} to 65535, got ${value}`);
    return value;
}

function fail(message: string): never {
    console.error(`svc-studio web: ${message}\n${usage}`);
    process.exit(2);
}

main(process.argv.slice(2)).catch((error) => {
    console.error(`svc-studio web: ${(error as Error).message}`);
    process.exit(1);
});
