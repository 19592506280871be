import os from "node:os";
import path from "node:path";

/**
 * The platform's per-user data folder for svc-studio: `$XDG_DATA_HOME` or `~/.local/share` on Linux,
 * `~/Library/Application Support` on macOS, `%LOCALAPPDATA%` on Windows (models and databases are large and
 * machine-specific, so not the roaming folder), + `svc-studio`. The model library and the service database live here.
 */
export function userDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
    if (platform === "win32") return path.join(env.LOCALAPPDATA?.trim() || path.join(home, "AppData", "Local"), "svc-studio");
    if (platform === "darwin") return path.join(home, "Library", "Application Support", "svc-studio");
    return path.join(env.XDG_DATA_HOME?.trim() || path.join(home, ".local", "share"), "svc-studio");
}

/** Where `serve` and `admin` keep the service database (`--data-dir`): `$SVC_STUDIO_DATA_DIR` when set, else the user data folder. */
export function serviceDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
    const configured = env.SVC_STUDIO_DATA_DIR?.trim();
    return configured ? path.resolve(configured) : userDataDir(env, platform, home);
}

/**
 * The platform's per-user cache folder for svc-studio: `$XDG_CACHE_HOME` when set (on any platform), else
 * `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows (its `Cache` subfolder), + `svc-studio`.
 * What is kept here can be deleted at any time (the response cache of `eval` and `score`).
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
    const xdg = env.XDG_CACHE_HOME?.trim();
    if (xdg) return path.join(xdg, "svc-studio");
    if (platform === "win32") return path.join(env.LOCALAPPDATA?.trim() || path.join(home, "AppData", "Local"), "svc-studio", "Cache");
    if (platform === "darwin") return path.join(home, "Library", "Caches", "svc-studio");
    return path.join(home, ".cache", "svc-studio");
}
