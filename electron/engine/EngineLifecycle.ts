import type {ModelLibrary} from "../../native/library/ModelLibrary.ts";
import type {EngineSupervisor} from "./EngineSupervisor.ts";
import type {EngineStatus, EngineLifecycleSettings} from "../../protocol/gateway/contract.ts";

/**
 * Load on first request and unload when idle, around the EngineSupervisor: counts `/local` requests in flight
 * (a stream counts until it ends), and stops the engine once none came for `idleUnloadMinutes`.
 */
export class EngineLifecycle {
    private readonly supervisor: EngineSupervisor;
    private readonly library?: ModelLibrary;
    private current: EngineLifecycleSettings;
    private inFlight = 0;
    private lastActivity = Date.now();
    private timer?: NodeJS.Timeout;
    private starting?: Promise<boolean>;
    /** True from an idle unload until the engine next starts: the UI says why it stopped. */
    private unloadedForIdle = false;
    private readonly onStatus = (status: EngineStatus) => {
        if (status.status === "starting" || status.status === "running") this.unloadedForIdle = false;
        if (status.status === "running") this.arm();
    };

    public constructor(supervisor: EngineSupervisor, settings: Partial<EngineLifecycleSettings> = {}, library?: ModelLibrary) {
        this.supervisor = supervisor;
        this.library = library;
        this.current = {autoStart: settings.autoStart ?? false, idleUnloadMinutes: settings.idleUnloadMinutes ?? 0};
        supervisor.on("status", this.onStatus);
        if (supervisor.status().status === "running") this.arm();
    }

    public settings(): EngineLifecycleSettings {
        return {...this.current};
    }

    public get idleUnloaded(): boolean {
        return this.unloadedForIdle;
    }

    public configure(change: Partial<EngineLifecycleSettings>) {
        this.current = {
            autoStart: change.autoStart ?? this.current.autoStart,
            idleUnloadMinutes: change.idleUnloadMinutes ?? this.current.idleUnloadMinutes
        };
        this.arm();
    }

    /**
     * True when the engine is running, after starting it when it is stopped and autoStart is on. Concurrent callers
     * share one start. A crashed engine is not restarted here: its error stays visible until started on purpose.
     */
    public async ensureRunning(): Promise<boolean> {
        const {status} = this.supervisor.status();
        if (status === "running") return true;
        if (!this.current.autoStart || (status !== "stopped" && status !== "starting")) return false;
        this.starting ??= this.start().finally(() => this.starting = undefined);
        return this.starting;
    }

    /** Marks a `/local` request as started; call the returned function when it has ended. */
    public requestStarted(): () => void {
        this.inFlight++;
        this.lastActivity = Date.now();
        let ended = false;
        return () => {
            if (ended) return;
            ended = true;
            this.inFlight--;
            this.lastActivity = Date.now();
            this.arm();
        };
    }

    public dispose() {
        clearTimeout(this.timer);
        this.supervisor.off("status", this.onStatus);
    }

    private async start(): Promise<boolean> {
        const modelPath = this.supervisor.modelPath() ?? (await this.library?.defaultModel())?.path;
        if (modelPath == null) return false;
        await this.supervisor.start(modelPath).catch(() => undefined);
        this.lastActivity = Date.now();
        return this.supervisor.status().status === "running";
    }

    /** (Re)schedules the idle check from the last activity. */
    private arm() {
        clearTimeout(this.timer);
        this.timer = undefined;
        const idleMs = this.current.idleUnloadMinutes * 60_000;
        if (idleMs <= 0 || this.supervisor.status().status !== "running") return;
        const due = Math.max(0, this.lastActivity + idleMs - Date.now());
        this.timer = setTimeout(() => void this.check(idleMs), due);
        // Never the reason the process stays alive.
        this.timer.unref();
    }

    private async check(idleMs: number) {
        this.timer = undefined;
        if (this.supervisor.status().status !== "running") return;
        // A request in flight re-arms the timer when it ends; an early wake-up (activity since) waits the rest.
        if (this.inFlight > 0) return;
        if (Date.now() - this.lastActivity < idleMs) return this.arm();
        await this.supervisor.stop();
        this.unloadedForIdle = true;
    }
}
