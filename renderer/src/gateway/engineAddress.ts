// Where scripts on this machine reach the app's local engine, from the gateway state (one rule for every screen).
import type {EngineState} from "./types.ts";

/**
 * The engine's URL while it runs, else where its next start listens (its port is kept across restarts and launches);
 * undefined when that is a free port the OS picks at that start.
 */
export function engineAddress(engine: Pick<EngineState, "status" | "url" | "port">): string | undefined {
    if (engine.status === "running" && engine.url != null) return engine.url;
    return engine.port != null && engine.port !== 0 ? `http://127.0.0.1:${engine.port}` : undefined;
}
