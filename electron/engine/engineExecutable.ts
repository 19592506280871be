import {existsSync} from "node:fs";
import path from "node:path";

/**
 * The binary that runs the engine in Node mode (ELECTRON_RUN_AS_NODE): the app's own executable, except on macOS,
 * where LaunchServices would register a child of the main executable as a second foreground app with a Dock icon
 * of its own. There it is Electron's helper (`Contents/Frameworks/<name> Helper.app`, named after the main
 * executable by electron-builder), whose Info.plist declares LSUIElement: a background process, no Dock icon, the same
 * Node runtime. A bundle without that helper (an unpackaged `electron .` run) falls back to the main executable.
 */
export function engineExecutable(execPath: string, platform: NodeJS.Platform = process.platform, exists: (file: string) => boolean = existsSync): string {
    if (platform !== "darwin") return execPath;
    const name = path.basename(execPath);
    const contents = path.dirname(path.dirname(execPath));
    const helper = path.join(contents, "Frameworks", `${name} Helper.app`, "Contents", "MacOS", `${name} Helper`);
    return exists(helper) ? helper : execPath;
}
