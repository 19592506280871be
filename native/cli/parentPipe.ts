/**
 * Set by the app's EngineSupervisor when it starts `serve`: the engine's stdin is then a pipe whose other end only
 * the parent holds, and the engine exits when it reads end-of-file there. The operating system closes that end
 * whenever the parent ends, however it ends (a crash, SIGKILL, a force-quit), so an engine never goes on serving
 * with the model in memory after the app that started it is gone. Polling the parent's pid would not do: on Windows
 * a process keeps its parent id after the parent exits.
 */
export const parentPipeEnvVar = "SVC_STUDIO_PARENT_PIPE";

/**
 * When this process was started with the parent pipe, calls `onParentGone` once the parent has ended. The variable is
 * removed from `env`, so nothing this process starts inherits it. Returns whether it watches.
 */
export function watchParentPipe(env: NodeJS.ProcessEnv, onParentGone: () => void): boolean {
    const watched = env[parentPipeEnvVar] === "stdin";
    delete env[parentPipeEnvVar];
    if (!watched) return false;
    let called = false;
    const gone = () => {
        if (called) return;
        called = true;
        onParentGone();
    };
    process.stdin.on("end", gone);
    process.stdin.on("close", gone);
    process.stdin.on("error", gone);
    // The parent never writes; reading only waits for the end.
    process.stdin.resume();
    return true;
}
