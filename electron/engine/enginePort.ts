import {createServer} from "node:net";

/**
 * Where the app's engine listens unless the user chose a port: 8080's neighbour, since `svc-studio serve` defaults
 * to 8080 and a standalone engine there must not collide with the app's. Below every OS's ephemeral range (Linux
 * 32768-60999, macOS and Windows 49152-65535), so no outgoing connection ever borrows it as its local port.
 */
export const firstEnginePort = 8081;

export type PortCheck = "free" | "in_use";

/**
 * Whether 127.0.0.1:`port` can be listened on now, tried by listening on it for a moment. A port taken by a program
 * that listens only on another address (0.0.0.0 with SO_REUSEPORT, say) can still fail later; the engine's own
 * EADDRINUSE says so then.
 */
export function checkPort(port: number, host = "127.0.0.1"): Promise<PortCheck> {
    return new Promise((resolve, reject) => {
        const probe = createServer();
        probe.once("error", (error: NodeJS.ErrnoException) => {
            if (error.code === "EADDRINUSE") resolve("in_use");
            else reject(error);
        });
        probe.listen({port, host, exclusive: true}, () => probe.close(() => resolve("free")));
    });
}

/**
 * The first port from `from` on that is free now, tried `tries` ports far; 0 (a free port the OS picks at every start)
 * when none of them is. Chosen once, at the first launch, and then kept in the app's data folder: a fixed port
 * would fail on a machine where another program holds it, and a port the OS picks at every start breaks View code
 * snippets, scripts and remote profiles pointed at the engine at every restart.
 */
export async function firstFreePort(from = firstEnginePort, tries = 100): Promise<number> {
    for (let port = from; port < from + tries && port <= 65535; port++)
        if (await checkPort(port) === "free") return port;
    return 0;
}

/** The one message for a port another program holds: what happened, and what to do about it. */
export function portInUseMessage(port: number): string {
    return `port ${port} on 127.0.0.1 is in use by another program, so the engine cannot listen there: choose another port for ` +
        `the local engine (Engine & connections screen, Port; npm run web -- --engine-port <n>) or close the program that holds it, then start the engine again`;
}

/** What the Engine screen says when the kept port is taken at a start and the engine listens on `port` instead (0: a free one). */
export function keptPortTakenMessage(kept: number, port: number): string {
    const where = port === 0 ? "a free port chosen at start" : `port ${port}`;
    return `Port ${kept}, the local engine's saved port, is in use by another program, so the engine listens on ${where} for now: ` +
        `scripts, View code and remote profiles pointed at http://127.0.0.1:${kept} need the new address. The engine goes back to ` +
        `${kept} at a later start once it is free; to keep another port, choose it here (Port), or close the program that holds ${kept}.`;
}
