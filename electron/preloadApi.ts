// The TYPE of `window.svcStudio`, which preload.ts exposes in the Electron app. The renderer may import it as a
// type only; in browser mode (`npm run web`) `window.svcStudio` is undefined, so the renderer must check for it.

export type SvcStudioApi = {
    /** Node's `process.platform` of the app: "darwin", "win32", "linux". */
    platform: string,
    /** The app's version (package.json `version`). */
    version: string,
    /** Shows the OS file dialog for a .gguf model; the chosen absolute path, or null when cancelled. */
    openModelFile(): Promise<string | null>
};

/** The one IPC channel between preload and main; both sides type their constant with it, so they cannot drift. */
export type SvcStudioIpcChannel = "svc-studio:open-model-file";

/** The argument through which main hands the version to the sandboxed preload (which cannot ask `app`). */
export type SvcStudioVersionArgument = `--svc-studio-version=${string}`;
