// Runs sandboxed in the renderer before the page: exposes the narrow `window.svcStudio` API and nothing else.
// Compiled to out/electron/preload.cjs by electron/build/bundle.ts (sandboxed preloads cannot load ESM or
// local modules, so this file imports only `electron` and types).
import {contextBridge, ipcRenderer} from "electron";
import type {SvcStudioApi, SvcStudioIpcChannel} from "./preloadApi.ts";

const openModelFileChannel: SvcStudioIpcChannel = "svc-studio:open-model-file";
const versionPrefix = "--svc-studio-version=";

const api: SvcStudioApi = {
    platform: process.platform,
    version: process.argv.find((argument) => argument.startsWith(versionPrefix))?.slice(versionPrefix.length) ?? "unknown",
    openModelFile: () => ipcRenderer.invoke(openModelFileChannel) as Promise<string | null>
};

contextBridge.exposeInMainWorld("svcStudio", api);
