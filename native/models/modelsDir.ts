import os from "node:os";
import path from "node:path";

/**
 * The model library folder: `$SVC_STUDIO_MODELS_DIR` when set, else the platform's per-user data folder
 * (`$XDG_DATA_HOME` or `~/.local/share` on Linux, `~/Library/Application Support` on macOS, `%LOCALAPPDATA%` on
 * Windows, since models are large and machine-specific) + `svc-studio/models`.
 */
export function modelsDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
    const configured = env.SVC_STUDIO_MODELS_DIR?.trim();
    if (configured) return path.resolve(configured);
    if (platform === "win32") return path.join(env.LOCALAPPDATA?.trim() || path.join(home, "AppData", "Local"), "svc-studio", "models");
    if (platform === "darwin") return path.join(home, "Library", "Application Support", "svc-studio", "models");
    return path.join(env.XDG_DATA_HOME?.trim() || path.join(home, ".local", "share"), "svc-studio", "models");
}
