// Electron main process: one window on the gateway's loopback origin. All logic that can be tested without
// Electron lives in the modules beside it (gateway/, engine/, secrets/, connections/, models/); this file wires it to the window, menus, dialogs and safeStorage.
import {defaultThreads} from "../native/engine/threads.ts";
import path from "node:path";
import {app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type MenuItemConstructorOptions, type OpenDialogOptions} from "electron";
import {embeddedModelNote, embeddedModelPath} from "../native/library/embeddedModel.ts";
import {ModelLibrary} from "../native/library/ModelLibrary.ts";
import {ConnectionStore} from "./connections/ConnectionStore.ts";
import {contentSecurityPolicy} from "./gateway/staticFiles.ts";
import {EngineSupervisor} from "./engine/EngineSupervisor.ts";
import {engineExecutable} from "./engine/engineExecutable.ts";
import {Gateway} from "./gateway/Gateway.ts";
import {KeyVault} from "./secrets/KeyVault.ts";
import type {SvcStudioIpcChannel, SvcStudioVersionArgument} from "./preloadApi.ts";
import {safeStorageBackend} from "./secrets/safeStorageBackend.ts";

// The app's root (app.asar when packaged): the bundles in out/ (electron/build/bundle.ts), renderer/dist, resources/.
const appRoot = app.getAppPath();
const preloadPath = path.join(appRoot, "out", "electron", "preload.cjs");
const rendererDir = path.join(appRoot, "renderer", "dist");
const iconPath = path.join(appRoot, "resources", "icon.png");
const openModelFileChannel: SvcStudioIpcChannel = "svc-studio:open-model-file";
const modelDialog: OpenDialogOptions = {
    title: "Open a GGUF model",
    properties: ["openFile"],
    filters: [{name: "GGUF models", extensions: ["gguf"]}, {name: "All files", extensions: ["*"]}]
};

let gateway: Gateway | undefined;
let mainWindow: BrowserWindow | undefined;
let shutdown: Promise<void> | undefined;
let shutdownDone = false;

if (!app.requestSingleInstanceLock()) {
    // Another instance owns the data directory and its engine: hand over to it (it focuses its window).
    app.quit();
} else {
    app.on("second-instance", () => {
        if (mainWindow == null) return;
        if (mainWindow.isMinimized()) mainWindow.restore();
        mainWindow.focus();
    });
    app.on("web-contents-created", (_event, contents) => {
        // The window only ever shows the gateway origin; links elsewhere open in the system browser.
        contents.on("will-navigate", (event, url) => {
            if (isGatewayUrl(url)) return;
            event.preventDefault();
            openExternal(url);
        });
        contents.setWindowOpenHandler(({url}) => {
            openExternal(url);
            return {action: "deny"};
        });
        contents.on("will-attach-webview", (event) => event.preventDefault());
    });
    app.on("window-all-closed", () => {
        if (process.platform !== "darwin") app.quit();
    });
    app.on("activate", () => {
        if (gateway != null && BrowserWindow.getAllWindows().length === 0) void createWindow(gateway);
    });
    app.on("before-quit", (event) => {
        // Stop the engine child before exiting, so no model stays loaded in an orphaned process.
        if (shutdownDone) return;
        event.preventDefault();
        // Windows first: a page sends its last save of the user's data as it closes, which the gateway then finishes.
        shutdown ??= closeWindows()
            .then(() => gateway?.close())
            .catch((error: unknown) => console.error("svc-studio: shutdown:", error))
            .finally(() => {
                shutdownDone = true;
                app.quit();
            });
    });
    main().catch((error: unknown) => {
        dialog.showErrorBox("Svc Studio could not start", error instanceof Error ? error.stack ?? error.message : String(error));
        app.exit(1);
    });
}

async function main() {
    await app.whenReady();
    app.setAboutPanelOptions({applicationName: "Svc Studio", applicationVersion: app.getVersion()});
    const dataDir = app.getPath("userData");
    const library = new ModelLibrary();
    const supervisor = new EngineSupervisor({
        threads: defaultThreads(),
        gpu: "auto",
        // The engine runs on the app's own binary in Node mode (on macOS its Helper, which takes no Dock icon): no
        // separate Node install is needed. Its CLI is bundled too, so neither process compiles TypeScript at start-up.
        execPath: engineExecutable(process.execPath),
        cliPath: path.join(appRoot, "out", "engine", "cli.mjs"),
        env: {ELECTRON_RUN_AS_NODE: "1"}
    });
    const connections = await ConnectionStore.open(path.join(dataDir, "connections.json"));
    // An unreadable key file is moved aside and the app starts without its keys (KeyVault.open); the user is told below.
    const vault = await KeyVault.open({filePath: path.join(dataDir, "keys.json"), backend: safeStorageBackend()});
    gateway = await Gateway.start({
        mode: "electron",
        supervisor,
        connections,
        vault,
        rendererDir,
        confirmPlaintextKeyStorage: askPlaintextConsent,
        // The same library as `npm run pull` ($SVC_STUDIO_MODELS_DIR or the user data folder): pulled models show up here.
        library,
        lifecycle: {autoStart: true, idleUnloadMinutes: Number(process.env.SVC_STUDIO_IDLE_UNLOAD_MINUTES) || 0},
        // The renderer's saved data (settings, question sets, run history, scoring jobs): the page's own storage is
        // per origin, and the origin's port changes at every launch.
        appDataDir: path.join(dataDir, "app-data"),
        // The window's Chromium profile: earlier versions kept their data in its storage, one origin per launch's port.
        browserProfileDir: dataDir
    });
    await secureSession(gateway);
    ipcMain.handle(openModelFileChannel, async (event) => {
        if (!isGatewayUrl(event.senderFrame?.url ?? "")) throw new Error("openModelFile is only available to the Svc Studio window");
        return chooseModelFile();
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate()));
    await createWindow(gateway);
    if (vault.recovery != null) void tellKeysLost(vault.recovery.message, connections.list()
        .filter((profile) => profile.kind === "remote" && !vault.has(profile.id)).map((profile) => profile.name));
    // A demo always works: without SVC_MODEL or a library model the built-in model is served. The window is up
    // first and shows `starting`; a failure is in the state (`crashed` with the engine's message).
    const modelPath = process.env.SVC_MODEL?.trim() || (await library.defaultModel())?.path || builtInModel();
    supervisor.start(modelPath).catch((error: unknown) => console.error("svc-studio: engine:", (error as Error).message));
}

/** Closes every window as its close button does (the page's pagehide runs), resolving once all are closed. */
function closeWindows(): Promise<void> {
    return Promise.all(BrowserWindow.getAllWindows().map((window) => new Promise<void>((resolve) => {
        window.once("closed", () => resolve());
        window.close();
    }))).then(() => undefined);
}

async function createWindow(current: Gateway) {
    const versionArgument: SvcStudioVersionArgument = `--svc-studio-version=${app.getVersion()}`;
    const window = new BrowserWindow({
        width: 1400,
        height: 900,
        minWidth: 900,
        minHeight: 600,
        title: "Svc Studio",
        icon: iconPath,
        show: false,
        webPreferences: {
            contextIsolation: true,
            sandbox: true,
            nodeIntegration: false,
            webSecurity: true,
            spellcheck: false,
            preload: preloadPath,
            additionalArguments: [versionArgument]
        }
    });
    mainWindow = window;
    window.once("ready-to-show", () => window.show());
    window.on("closed", () => {
        if (mainWindow === window) mainWindow = undefined;
    });
    await window.loadURL(current.url);
}

/**
 * The gateway's session cookie on the window's session, set here before any page loads: the gateway then takes the
 * window's calls and no page carries a credential (HttpOnly: the page's script cannot read it either). CSP on every
 * HTML answer of the gateway (it sends one too; this holds even if a page lacked it), no permissions.
 */
async function secureSession(current: Gateway) {
    const {name, value} = current.sessionCookie();
    await session.defaultSession.cookies.set({url: current.url, name, value, path: "/", httpOnly: true, sameSite: "strict"});
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
        const headers = {...details.responseHeaders};
        const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1]?.[0] ?? "";
        if (isGatewayUrl(details.url) && (details.resourceType === "mainFrame" || contentType.startsWith("text/html"))) {
            for (const name of Object.keys(headers)) if (name.toLowerCase() === "content-security-policy") delete headers[name];
            headers["Content-Security-Policy"] = [contentSecurityPolicy];
        }
        callback({responseHeaders: headers});
    });
    // Copy buttons need clipboard writes; nothing else (camera, notifications, geolocation ...) is ever granted.
    const allowed = new Set(["clipboard-sanitized-write"]);
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(allowed.has(permission)));
    session.defaultSession.setPermissionCheckHandler((_contents, permission) => allowed.has(permission));
}

function menuTemplate(): MenuItemConstructorOptions[] {
    const isMac = process.platform === "darwin";
    return [
        ...(isMac ? [{role: "appMenu"} as const] : []),
        {
            label: "File",
            submenu: [
                {label: "Open Model…", accelerator: "CmdOrCtrl+O", click: () => void openModelFromMenu()},
                {label: "Restart Engine", click: () => void restartEngine()},
                {label: "Stop Engine", click: () => void gateway?.supervisor.stop()},
                {type: "separator"},
                isMac ? {role: "close"} : {role: "quit"}
            ]
        },
        {role: "editMenu"},
        {role: "viewMenu"},
        {role: "windowMenu"},
        {
            label: "Help",
            submenu: [
                {label: "About Svc Studio", click: () => app.showAboutPanel()},
                {label: "Open Data Folder", click: () => void shell.openPath(app.getPath("userData"))}
            ]
        }
    ];
}

async function chooseModelFile(): Promise<string | null> {
    const result = mainWindow != null ? await dialog.showOpenDialog(mainWindow, modelDialog) : await dialog.showOpenDialog(modelDialog);
    return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0];
}

async function openModelFromMenu() {
    const modelPath = await chooseModelFile();
    if (modelPath == null || gateway == null) return;
    await gateway.supervisor.start(modelPath).catch((error: unknown) =>
        dialog.showErrorBox("The model could not be loaded", (error as Error).message));
}

async function restartEngine() {
    if (gateway == null) return;
    await gateway.supervisor.stop();
    await gateway.supervisor.start().catch((error: unknown) =>
        dialog.showErrorBox("The engine could not start", (error as Error).message));
}

/** The key file could not be read and was moved aside: which connections lost their key, and what to do. */
async function tellKeysLost(message: string, remotesWithoutKey: string[]) {
    const options = {
        type: "warning" as const,
        title: "Saved API keys could not be read",
        message: "Svc Studio started without its saved API keys",
        detail: message + (remotesWithoutKey.length === 0 ? "" : `\n\nConnections that need their key again: ${remotesWithoutKey.join(", ")}.`)
    };
    if (mainWindow != null) await dialog.showMessageBox(mainWindow, options);
    else await dialog.showMessageBox(options);
}

/** Asked by the gateway when Linux has no keyring: saving the key anyway must be the user's informed choice. */
async function askPlaintextConsent(): Promise<boolean> {
    const options = {
        type: "warning" as const,
        buttons: ["Cancel", "Save Anyway"],
        defaultId: 0,
        cancelId: 0,
        title: "No keyring found",
        message: "Save the API key without a keyring?",
        detail: "No secret store (GNOME Keyring, KWallet) is available, so the key would only be obfuscated on disk: " +
            "any program running as you could read it. Cancel, unlock or install a keyring and restart Svc Studio to store it encrypted."
    };
    const {response} = mainWindow != null ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
    return response === 1;
}

function isGatewayUrl(url: string): boolean {
    return gateway != null && url.startsWith(gateway.url);
}

function openExternal(url: string) {
    if (/^https?:\/\//i.test(url)) void shell.openExternal(url);
}

function builtInModel(): string {
    console.log(`svc-studio: ${embeddedModelNote}`);
    return embeddedModelPath;
}
