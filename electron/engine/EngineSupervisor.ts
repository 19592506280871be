import {backoffDelay} from "../../base/common/sleep.ts";
import {userDataDir} from "../../base/node/userDataDir.ts";
import {execFile, spawn, type ChildProcess} from "node:child_process";
import {randomBytes} from "node:crypto";
import path from "node:path";
import {EventEmitter} from "node:events";
import {createInterface} from "node:readline";
import {fileURLToPath} from "node:url";
import type {EngineStatus} from "../../protocol/gateway/contract.ts";
import {adminKeyEnvVar, engineKeyEnvVar} from "../../native/cli/engineKeyEnv.ts";
import {parentPipeEnvVar} from "../../native/cli/parentPipe.ts";
import {checkPort, firstFreePort, keptPortTakenMessage, portInUseMessage} from "./enginePort.ts";

/** Keeps the last `maxLines` lines written to it: the stderr of a child, quoted when it dies. */
export class TextTail {
    private readonly maxLines: number;
    private lines: string[] = [];

    public constructor(maxLines: number) {
        this.maxLines = maxLines;
    }

    public push(line: string) {
        if (line.trim() === "") return;
        this.lines.push(line.length > 500 ? line.slice(0, 500) + "..." : line);
        if (this.lines.length > this.maxLines) this.lines.shift();
    }

    public clear() {
        this.lines = [];
    }

    public text(): string {
        return this.lines.join("\n");
    }
}

/** What the engine CLI prints on start-up (native/cli/main.ts `serve`), read back line by line. */
export type EngineLine =
    | {kind: "model", modelPath: string, template: string, gpu: string | false, threads: number, contextSize: number, parallel: number}
    | {kind: "listening", url: string}
    | {kind: "projector", mmprojPath: string};

const modelLine = /^model (.+) \((.+?) template\), (.+?), (\d+) threads, context (\d+) x (\d+) sequences$/;
const listeningLine = /^listening on (http:\/\/\S+)$/;
/** `serve --model <file>` names the projector it found beside the model (native/cli/serveArgs.ts, resolveServeModel). */
const projectorLine = /^vision projector (.+) \(beside the model, same name\)$/;

export function parseEngineLine(line: string): EngineLine | undefined {
    const listening = listeningLine.exec(line.trim());
    if (listening != null) return {kind: "listening", url: listening[1]};
    const projector = projectorLine.exec(line.trim());
    if (projector != null) return {kind: "projector", mmprojPath: projector[1]};
    const model = modelLine.exec(line.trim());
    if (model == null) return undefined;
    return {
        kind: "model",
        modelPath: model[1],
        template: model[2],
        gpu: model[3] === "CPU" ? false : model[3],
        threads: Number(model[4]),
        contextSize: Number(model[5]),
        parallel: Number(model[6])
    };
}

export type EngineSupervisorOptions = {
    modelPath?: string,
    threads?: number,
    /** The loopback port the engine listens on, kept for every start and restart; 0 (default): a free one at every start. */
    port?: number,
    /** The engine's service database folder (`serve --data-dir`); default `app-engine` in the user data folder. */
    dataDir?: string,
    gpu?: "auto" | "off" | "cuda" | "vulkan" | "metal",
    /** `--gpu-layers`: a count, `auto` (what fits) or `max`. */
    gpuLayers?: number | "auto" | "max",
    contextSize?: number,
    parallel?: number,
    /** Passed as `--api-key` (tests use it to run a key-protected engine). */
    apiKeys?: string[],
    /** The engine CLI; default `native/cli/bin.mjs` of this checkout. */
    cliPath?: string,
    /** The Node binary; in Electron it is the app binary run with ELECTRON_RUN_AS_NODE=1 (see `env`). */
    execPath?: string,
    /** Extra variables for the child, over this process's environment. */
    env?: Record<string, string>,
    /** Longest wait for `listening on` (big models take a while to load). */
    startTimeoutMs?: number,
    /** After SIGTERM, how long the child may take to exit before SIGKILL. */
    stopTimeoutMs?: number,
    /** Restarts tried after a crash before giving up (the counter resets once an engine ran `stableAfterMs`). */
    maxRestarts?: number,
    restartDelayMs?: number,
    maxRestartDelayMs?: number,
    stableAfterMs?: number
};

const defaultCliPath = fileURLToPath(new URL("../../native/cli/bin.mjs", import.meta.url));

/** Variables no child inherits from this process: the engine never needs the remote key, nor `runCli` a stray engine key. */
const privateEnv = ["SVC_REMOTE_API_KEY", engineKeyEnvVar, adminKeyEnvVar];

type Launch = {child: ChildProcess, ready: Promise<void>, closed: Promise<void>};

/**
 * Runs the local engine (`svc-studio serve --port <port>`) as a child process: start, stop (SIGTERM, then SIGKILL after
 * a timeout), restart with exponential backoff after a crash (bounded), and a status snapshot for the gateway.
 * A child that never came up (a bad model file) is not restarted: the same arguments would fail again.
 * Emits `status` with the new EngineStatus on every change.
 */
export class EngineSupervisor extends EventEmitter {
    private readonly options: EngineSupervisorOptions;
    private current: EngineStatus = {status: "stopped", restarts: 0};
    private launch?: Launch;
    /** True while the engine should be up: a crash then schedules a restart. */
    private wanted = false;
    private restartTimer?: NodeJS.Timeout;
    private runningSince = 0;
    private readonly stderr = new TextTail(20);
    /**
     * The engine's per-launch key: without one, any web page could drive the engine's loopback
     * port. Handed to the child in its environment, never on its command line, and only ever sent by the gateway.
     */
    private readonly engineKey = randomBytes(32).toString("hex");
    /**
     * The engine's per-launch admin key: its admin API and /metrics take this one only, so the gateway is
     * the engine's only admin, and the engine key (which the Engine screen lets a user copy for scripts) opens model
     * routes and nothing more. Handed down the same way.
     */
    private readonly adminKey = randomBytes(32).toString("hex");
    private readonly killOnExit = () => this.launch?.child.kill("SIGKILL");
    /**
     * The port saved for the engine (`setPort` or `start` with `keep`), tried first at every start. Another program may
     * have taken it since: the engine then listens on a free port instead, and `portNotice` says so, rather than not
     * starting at all.
     */
    private keptPort?: number;
    private portNotice?: string;

    public constructor(options: EngineSupervisorOptions = {}) {
        super();
        this.options = options;
    }

    public status(): EngineStatus {
        return {...this.current, port: this.options.port ?? 0, ...this.portNotice != null ? {portNotice: this.portNotice} : {}};
    }

    public modelPath(): string | undefined {
        return this.options.modelPath;
    }

    /** The `Authorization` value every request to the engine must carry (the gateway's proxy adds it). */
    public authorization(): string {
        return `Bearer ${this.engineKey}`;
    }

    /** The `Authorization` value the engine's admin API and /metrics require (the gateway's proxy adds it there). */
    public adminAuthorization(): string {
        return `Bearer ${this.adminKey}`;
    }

    /** The port set for the engine (0: a free one at every start). */
    public port(): number {
        return this.options.port ?? 0;
    }

    /**
     * Sets the port of the next start, without restarting a running engine (start with `{port}` does that). Without
     * `keep`, this port only: when another program holds it, start fails and says so. With `keep` (the port saved in the
     * app's data folder, which scripts and remote profiles point at): every start tries it first, and when another
     * program holds it, listens on the next free port (one the OS picks when none of the next 100 is) and says so in
     * `portNotice`, so local features keep working; a later start goes back to it once it is free.
     */
    public setPort(port: number, {keep = false}: {keep?: boolean} = {}) {
        this.usePort(port, keep);
        this.emit("status", this.status());
    }

    private usePort(port: number, keep: boolean) {
        this.options.port = port;
        this.keptPort = keep && port !== 0 ? port : undefined;
        this.portNotice = undefined;
    }

    /**
     * Starts the engine on `modelPath` (or the last one), with `threads` and `port` when given (kept for later starts;
     * `keep` as for setPort), and resolves once it listens. Starting the model that is already running or starting with the same settings is a
     * no-op; another model, thread count or port stops the current engine first.
     * Rejects with the engine's own error line when it fails to come up, and at once, before loading anything, when
     * another program holds the port; the status is then `crashed`.
     */
    public async start(modelPath?: string, settings: {threads?: number, port?: number, keep?: boolean} = {}): Promise<EngineStatus> {
        const model = modelPath ?? this.options.modelPath;
        if (model == null) throw new Error("no model file chosen for the local engine");
        const sameSettings = (settings.threads == null || settings.threads === this.options.threads) && (settings.port == null || settings.port === this.port());
        if (this.launch != null && model === this.options.modelPath && sameSettings && (this.current.status === "running" || this.current.status === "starting")) {
            await this.launch.ready;
            return this.status();
        }
        await this.stop();
        this.options.modelPath = model;
        if (settings.threads != null) this.options.threads = settings.threads;
        if (settings.port != null) this.usePort(settings.port, settings.keep === true);
        this.current = {status: "stopped", restarts: 0};
        if (this.keptPort != null) await this.chooseLaunchPort(this.keptPort);
        // A model takes seconds to minutes to load: a port that is taken is said before, not after.
        // Any other failure of the check (EACCES) is left to the engine, whose own error then says what it is.
        if (this.port() !== 0 && await checkPort(this.port()).catch(() => "free") === "in_use") {
            const error = portInUseMessage(this.port());
            this.setStatus({status: "crashed", model, restarts: 0, error});
            throw new Error(error);
        }
        this.wanted = true;
        try {
            await this.spawnEngine().ready;
        } catch (error) {
            this.wanted = false;
            throw error;
        }
        return this.status();
    }

    /**
     * The kept port when it is free; else the port this launch already moved to when that is still free (a restart
     * stays where scripts were told to go), else the next free one.
     */
    private async chooseLaunchPort(kept: number) {
        const isFree = (port: number) => checkPort(port).then((check) => check === "free", () => false);
        // Any failure of the check other than EADDRINUSE (EACCES) is left to the engine, whose own error then says what it is.
        if (await checkPort(kept).catch(() => "free") === "free") {
            this.options.port = kept;
            this.portNotice = undefined;
            return;
        }
        const current = this.port();
        const port = current !== kept && current !== 0 && await isFree(current) ? current : await firstFreePort(kept + 1);
        this.options.port = port;
        this.portNotice = keptPortTakenMessage(kept, port);
        console.warn(`engine: ${this.portNotice}`);
    }

    /** Stops the engine and any pending restart; resolves once the child has exited. */
    public async stop(): Promise<void> {
        this.wanted = false;
        clearTimeout(this.restartTimer);
        this.restartTimer = undefined;
        const launch = this.launch;
        if (launch != null) await this.terminate(launch);
        this.launch = undefined;
        this.setStatus({status: "stopped", restarts: 0, model: this.options.modelPath});
    }

    /**
     * Runs another `svc-studio` command (e.g. `gpu --json`) with the engine's binary and environment, so native
     * code is only ever loaded in a child, never in the gateway's (Electron main) process. Resolves with stdout.
     */
    public runCli(args: string[], timeoutMs = 60_000): Promise<string> {
        const env = this.childEnv();
        return new Promise((resolve, reject) => {
            execFile(this.options.execPath ?? process.execPath, [this.options.cliPath ?? defaultCliPath, ...args],
                {env, timeout: timeoutMs, windowsHide: true, maxBuffer: 1024 * 1024}, (error, stdout, stderr) => {
                    if (error != null) reject(new Error(`svc-studio ${args.join(" ")} failed: ${stderr.trim() || error.message}`));
                    else resolve(stdout);
                });
        });
    }

    private spawnEngine(): Launch {
        const options = this.options;
        // Loopback only: the engine is for this machine, and the gateway is its one intended client.
        // Its own service database: workspaces a team server on this machine keeps in the shared user data folder
        // would otherwise switch the app's engine into workspace mode, where its per-launch key admits no one.
        const args = [options.cliPath ?? defaultCliPath, "serve", "--model", options.modelPath!, "--host", "127.0.0.1", "--port", String(this.port()),
            "--data-dir", options.dataDir ?? path.join(userDataDir(), "app-engine")];
        if (options.threads != null) args.push("--threads", String(options.threads));
        if (options.gpu != null) args.push("--gpu", options.gpu);
        if (options.gpuLayers != null) args.push("--gpu-layers", String(options.gpuLayers));
        if (options.contextSize != null) args.push("--context-size", String(options.contextSize));
        if (options.parallel != null) args.push("--parallel", String(options.parallel));
        for (const key of options.apiKeys ?? []) args.push("--api-key", key);

        // stdin is the parent pipe (native/cli/parentPipe.ts): the engine exits when this process ends, however it ends.
        const env = {...this.childEnv(), [engineKeyEnvVar]: this.engineKey, [adminKeyEnvVar]: this.adminKey, [parentPipeEnvVar]: "stdin"};
        const child = spawn(options.execPath ?? process.execPath, args, {env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true});
        this.stderr.clear();
        process.on("exit", this.killOnExit);
        this.setStatus({status: "starting", model: options.modelPath, pid: child.pid, restarts: this.current.restarts});

        const ready = new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => {
                reject(new Error(`the engine did not start within ${(options.startTimeoutMs ?? 120_000) / 1000} s`));
                child.kill("SIGKILL");
            }, options.startTimeoutMs ?? 120_000);
            createInterface({input: child.stdout!}).on("line", (line) => {
                const parsed = parseEngineLine(line);
                if (parsed?.kind === "model") {
                    const {modelPath: _path, template: _template, kind: _kind, ...info} = parsed;
                    this.setStatus({...this.current, ...info});
                } else if (parsed?.kind === "projector") {
                    this.setStatus({...this.current, mmproj: parsed.mmprojPath});
                } else if (parsed?.kind === "listening" && this.launch?.child === child) {
                    clearTimeout(timer);
                    this.runningSince = Date.now();
                    this.setStatus({...this.current, status: "running", url: parsed.url, error: undefined});
                    resolve();
                }
            });
            createInterface({input: child.stderr!}).on("line", (line) => this.stderr.push(line));
            // A spawn failure (no such binary) is followed by `close`, which reports it with this line.
            child.on("error", (error) => this.stderr.push(error.message));
            // `close`, not `exit`: by then stderr is fully read, so the error quotes the engine's last words.
            child.on("close", (code, signal) => {
                clearTimeout(timer);
                reject(new Error(this.describeExit(code, signal)));
                this.onExit(child, code, signal);
            });
        });
        // Callers that do not wait for `ready` (restarts) must not leave an unhandled rejection behind.
        ready.catch(() => undefined);
        const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
        this.launch = {child, ready, closed};
        return this.launch;
    }

    /** This process's environment with the options' variables over it, less the private ones. */
    private childEnv(): NodeJS.ProcessEnv {
        const env: NodeJS.ProcessEnv = {...process.env, ...this.options.env};
        for (const name of privateEnv) delete env[name];
        return env;
    }

    private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
        process.off("exit", this.killOnExit);
        if (this.launch?.child !== child) return;
        this.launch = undefined;
        if (!this.wanted) return;
        const wasRunning = this.current.status === "running";
        this.setStatus({status: "crashed", model: this.options.modelPath, error: this.describeExit(code, signal), restarts: this.current.restarts});
        // Only an engine that came up once is restarted; otherwise a start failure is final (see start()).
        if (wasRunning || this.current.restarts > 0) this.scheduleRestart();
        else this.wanted = false;
    }

    private scheduleRestart() {
        const {maxRestarts = 5, restartDelayMs = 500, maxRestartDelayMs = 15_000, stableAfterMs = 60_000} = this.options;
        let restarts = this.current.restarts;
        if (this.runningSince > 0 && Date.now() - this.runningSince >= stableAfterMs) restarts = 0;
        this.runningSince = 0;
        if (restarts >= maxRestarts) {
            this.wanted = false;
            this.setStatus({...this.current, restarts, error: `${this.current.error}; gave up after ${maxRestarts} restarts`});
            return;
        }
        this.setStatus({...this.current, restarts: restarts + 1});
        this.restartTimer = setTimeout(() => {
            this.restartTimer = undefined;
            if (this.wanted) this.spawnEngine();
        }, backoffDelay(restarts + 1, restartDelayMs, maxRestartDelayMs));
    }

    private async terminate({child, closed}: Launch) {
        if (child.exitCode == null && child.signalCode == null) child.kill("SIGTERM");
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), this.options.stopTimeoutMs ?? 5_000));
        if (await Promise.race([closed, timeout]) === "timeout") child.kill("SIGKILL");
        clearTimeout(timer);
        await closed;
    }

    private describeExit(code: number | null, signal: NodeJS.Signals | null): string {
        const how = signal != null ? `was killed by ${signal}` : `exited with code ${code}`;
        const output = this.stderr.text();
        // Taken between the check in start() and the engine's own listen (or at a restart after a crash).
        if (/\bEADDRINUSE\b/.test(output)) return portInUseMessage(this.port());
        return `the engine ${how}` + (output !== "" ? `: ${output}` : "");
    }

    private setStatus(status: EngineStatus) {
        this.current = status;
        this.emit("status", this.status());
    }
}
