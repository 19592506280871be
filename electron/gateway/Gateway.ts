import {createReadStream, createWriteStream} from "node:fs";
import {rm, stat} from "node:fs/promises";
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import type {AddressInfo} from "node:net";
import path from "node:path";
import {Transform} from "node:stream";
import {pipeline} from "node:stream/promises";
import {fileURLToPath} from "node:url";
import {ApiError} from "../../protocol/errors.ts";
import {toApiError} from "../../native/http/replies.ts";
import {closeIfBodyUnread, hasBody, readJsonBody} from "../../native/http/requests.ts";
import {optional, readInteger, readObject, readString, rejectUnknownFields, required} from "../../protocol/validation.ts";
import type {ModelLibrary} from "../../native/library/ModelLibrary.ts";
import {embeddedModel, embeddedModelPath, hasEmbeddedModel} from "../../native/library/embeddedModel.ts";
import {type ConnectionStore, readRemoteProfileInput} from "../connections/ConnectionStore.ts";
import {EngineLifecycle} from "../engine/EngineLifecycle.ts";
import type {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {EngineSettingsStore} from "../engine/EngineSettingsStore.ts";
import {checkPort, portInUseMessage} from "../engine/enginePort.ts";
import {GatewayError, type GatewayAnswer, type GatewayHandlers, writeJson} from "../api/answers.ts";
import {matchGatewayRoute} from "../../protocol/gateway/routes.ts";
import {AppDataStore, appDataBodyLimits} from "../appData/AppDataStore.ts";
import {type GatewayState, type EngineLifecycleSettings, lowestEnginePort} from "../../protocol/gateway/contract.ts";
import {type KeyStore, KeyVaultError} from "../secrets/KeyVault.ts";
import {ModelDownloads} from "../models/ModelDownloads.ts";
import {ModelsApi} from "../models/ModelsApi.ts";
import {type ForwardedPath, forwardedPath, isAllowedHost, proxyRequest, upstreamUrl} from "./proxy.ts";
import {GatewaySession, type SessionCookie} from "./session.ts";
import {LocalEngineKey} from "./localEngineKey.ts";
import {serveStatic} from "./staticFiles.ts";

export type GatewayOptions = {
    mode: "electron" | "web",
    supervisor: EngineSupervisor,
    connections: ConnectionStore,
    vault: KeyStore,
    /** The built renderer; default `renderer/dist` of this checkout. */
    rendererDir?: string,
    /** Default 0: a free port picked by the OS. */
    port?: number,
    /** Asked when the vault refuses a key for lack of a keyring; true means the user accepted plaintext storage. */
    confirmPlaintextKeyStorage?: () => Promise<boolean>,
    /** The model library behind `/gateway/api/models...` (absent: those routes answer 404). */
    library?: ModelLibrary,
    /** Downloads into `library`; default one with standard retries. */
    downloads?: ModelDownloads,
    /** Load on first `/local` request, unload when idle (both off by default). */
    lifecycle?: Partial<EngineLifecycleSettings>,
    /**
     * The folder of the renderer's saved data, `/gateway/api/app-data/...` (absent: those routes answer 404), and of the
     * engine's settings (its port), which the gateway gives the supervisor before the engine first starts.
     */
    appDataDir?: string,
    /**
     * The Chromium profile the app's pages ran in (Electron's user data folder): earlier versions kept their data in
     * its per-origin storage, which the app moves in at its first start.
     */
    browserProfileDir?: string,
    /** The engine's port for this launch (a command-line flag): wins over the saved one, and is not saved. */
    enginePort?: number
};

const defaultRendererDir = fileURLToPath(new URL("../../renderer/dist/", import.meta.url));
const apiBodyLimit = 64 * 1024;
const apiBodyTimeoutMs = 10_000;

/**
 * The one loopback origin of the app (its API: protocol/gateway): serves the renderer, proxies `/local/...` to the
 * supervised engine and `/remote/...` to the active remote profile with its key added, and answers `/gateway/api/*`.
 * Every request must name our own loopback host; every API request must carry the session cookie or the launch token
 * (session.ts), which no page holds.
 */
export class Gateway {
    private readonly session = new GatewaySession(() => this.listeningPort);
    public readonly mode: "electron" | "web";
    public readonly supervisor: EngineSupervisor;
    public readonly connections: ConnectionStore;
    private readonly vault: KeyStore;
    private readonly rendererDir: string;
    private readonly confirmPlaintextKeyStorage?: () => Promise<boolean>;
    private readonly server: Server;
    private listeningPort = 0;
    public readonly lifecycle: EngineLifecycle;
    public readonly downloads?: ModelDownloads;
    private readonly models?: ModelsApi;
    private readonly library?: ModelLibrary;
    private readonly localKey: LocalEngineKey;
    private readonly appData?: AppDataStore;
    private engineSettings?: EngineSettingsStore;

    private constructor(options: GatewayOptions) {
        this.mode = options.mode;
        this.supervisor = options.supervisor;
        this.connections = options.connections;
        this.vault = options.vault;
        this.localKey = new LocalEngineKey(options.vault);
        this.rendererDir = options.rendererDir ?? defaultRendererDir;
        this.confirmPlaintextKeyStorage = options.confirmPlaintextKeyStorage;
        this.library = options.library;
        this.lifecycle = new EngineLifecycle(options.supervisor, options.lifecycle, options.library);
        if (options.library != null) {
            this.downloads = options.downloads ?? new ModelDownloads(options.library);
            this.models = new ModelsApi(options.library, this.downloads, options.supervisor, this.lifecycle);
        }
        if (options.appDataDir != null)
            this.appData = new AppDataStore(options.appDataDir, {browserProfileDir: options.browserProfileDir, ownPort: () => this.listeningPort});
        this.server = createServer((req, res) => void this.handle(req, res));
    }

    /** Listens on 127.0.0.1 (never another interface: the token travels in clear). The engine is not started here. */
    public static async start(options: GatewayOptions): Promise<Gateway> {
        const gateway = new Gateway(options);
        await new Promise<void>((resolve, reject) => {
            gateway.server.once("error", reject);
            gateway.server.listen(options.port ?? 0, "127.0.0.1", () => {
                gateway.server.off("error", reject);
                resolve();
            });
        });
        gateway.listeningPort = (gateway.server.address() as AddressInfo).port;
        if (options.appDataDir != null) {
            gateway.engineSettings = await EngineSettingsStore.open(path.join(options.appDataDir, "engine-settings.json"));
            const port = await gateway.engineSettings.launchPort(options.enginePort);
            // The saved port may have been taken since the last launch: the engine then moves to a free one and says so.
            options.supervisor.setPort(port, {keep: options.enginePort == null});
        } else if (options.enginePort != null) options.supervisor.setPort(options.enginePort);
        return gateway;
    }

    public get port(): number {
        return this.listeningPort;
    }

    /** `http://127.0.0.1:PORT/`: what the window loads once main has set the session cookie. */
    public get url(): string {
        return `http://127.0.0.1:${this.listeningPort}/`;
    }

    /** The launch token: the `X-Gateway-Token` header's value for scripts, and the sign-in address's. */
    public get token(): string {
        return this.session.token;
    }

    /** `http://127.0.0.1:PORT/?token=...`: opened once in a browser, it sets the session cookie and goes to `/`. */
    public get signInUrl(): string {
        return `${this.url}?token=${this.session.token}`;
    }

    /** The HttpOnly, SameSite=Strict cookie Electron main sets on the window's session, so the page never holds a credential. */
    public sessionCookie(): SessionCookie {
        return this.session.cookie();
    }

    public state(): GatewayState {
        const {restarts: _restarts, ...engine} = this.supervisor.status();
        return {
            engine,
            connections: this.connections.list().map((profile) => profile.kind === "local"
                ? {...profile, hasKey: this.localKey.hint() != null, ...this.localKey.hint() != null ? {keyHint: this.localKey.hint()} : {}}
                : {...profile, hasKey: this.vault.has(profile.id)}),
            activeConnectionId: this.connections.activeId(),
            mode: this.mode,
            ...this.vault.recovery != null ? {keysNotice: this.vault.recovery.message} : {}
        };
    }

    /**
     * Stops taking connections, lets the requests in flight finish for up to `graceMs` (a closing window's last save of
     * the user's data among them), drops what is left, and stops the engine.
     */
    public async close({stopEngine = true, graceMs = 2_000}: {stopEngine?: boolean, graceMs?: number} = {}) {
        const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
        this.server.closeIdleConnections();
        const dropRest = setTimeout(() => this.server.closeAllConnections(), graceMs);
        this.lifecycle.dispose();
        await Promise.all([closed, stopEngine ? this.supervisor.stop() : undefined, this.downloads?.cancelAll()]);
        clearTimeout(dropRest);
        // After the last request has answered: its write is committed, and the database file is left settled.
        await this.appData?.close();
    }

    private async handle(req: IncomingMessage, res: ServerResponse) {
        try {
            if (!isAllowedHost(req.headers.host, this.listeningPort))
                throw new GatewayError(403, "invalid_host", "authentication_error",
                    `requests must be addressed to 127.0.0.1:${this.listeningPort} or localhost:${this.listeningPort}`);
            // The WHATWG parser resolves `..` and `%2e%2e`, so `/local/../gateway/...` cannot dodge the routing below.
            const url = new URL(req.url ?? "/", "http://gateway.invalid");
            const route = routeOf(url.pathname);
            if (route === "static") {
                if (req.method !== "GET" && req.method !== "HEAD")
                    throw new GatewayError(405, "method_not_allowed", "invalid_request_error", `${req.method} is not allowed on ${url.pathname}`);
                const offered = url.searchParams.get("token");
                if (offered != null && req.method === "GET") return this.session.signIn(res, url, offered);
                return await serveStatic(res, {rootDir: this.rendererDir, pathname: url.pathname, headOnly: req.method === "HEAD"});
            }
            this.session.authenticate(req);
            if (route === "local") return await this.proxyLocal(req, res, forwardedPath(req.url ?? "/", "/local"));
            if (route === "remote") return await this.proxyRemote(req, res, forwardedPath(req.url ?? "/", "/remote"));
            return await this.api(req, res, url);
        } catch (error) {
            if (res.headersSent) {
                res.destroy();
                return;
            }
            const apiError = error instanceof KeyVaultError ? vaultError(error) : toApiError(error);
            closeIfBodyUnread(req, res);
            writeJson(res, apiError.status, apiError.toEnvelope());
        }
    }

    private async proxyLocal(req: IncomingMessage, res: ServerResponse, forwarded: ForwardedPath) {
        // Stopped (idle unload, or never started) with autoStart on: this request loads the model and then goes through.
        await this.lifecycle.ensureRunning();
        const engineUrl = this.supervisor.status().url;
        if (this.supervisor.status().status !== "running" || engineUrl == null) throw engineStopped(this.supervisor.status().status);
        const ended = this.lifecycle.requestStarted();
        try {
            await proxyRequest(req, res, {
                target: upstreamUrl(engineUrl, forwarded),
                // The engine requires its per-launch key; the renderer never holds it. In workspace
                // mode model requests need the workspace key chosen for the app instead (localEngineKey.ts).
                addHeaders: {Authorization: this.localKey.authorization(forwarded.path,
                    {launch: this.supervisor.authorization(), admin: this.supervisor.adminAuthorization()})},
                unreachable: () => engineStopped(this.supervisor.status().status)
            });
        } finally {
            ended();
        }
    }

    private async proxyRemote(req: IncomingMessage, res: ServerResponse, forwarded: ForwardedPath) {
        // `X-Svc-Connection: <profile id>` sends to that saved profile (an experiment's variant), not the active one.
        const chosen = req.headers["x-svc-connection"];
        const profile = typeof chosen === "string" ? this.connections.get(chosen) : undefined;
        const remote = typeof chosen !== "string" ? this.connections.activeRemote() : profile?.kind === "remote" ? profile : undefined;
        if (typeof chosen === "string" && remote == null)
            throw new GatewayError(404, "connection_not_found", "invalid_request_error", `no remote connection ${chosen}: it may have been deleted`);
        if (remote == null)
            throw new GatewayError(409, "no_remote_connection", "invalid_request_error",
                "no remote connection is active: add one and activate it (POST /gateway/api/connections)");
        const key = this.vault.get(remote.id);
        await proxyRequest(req, res, {
            target: upstreamUrl(remote.baseUrl, forwarded),
            addHeaders: key != null ? {Authorization: `Bearer ${key}`} : {},
            unreachable: (error) => new GatewayError(502, "upstream_error", "api_error",
                `could not reach ${remote.baseUrl}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)
        });
    }

    private async api(req: IncomingMessage, res: ServerResponse, url: URL) {
        const method = req.method ?? "GET";
        const path = url.pathname.slice("/gateway/api".length);
        const route = matchGatewayRoute(method, path);
        const handler = route == null ? undefined : this.handlers[route.name] ?? this.models?.handlers[route.name] ?? this.appData?.handlers[route.name];
        if (route == null || handler == null)
            throw new GatewayError(404, "not_found", "invalid_request_error", `no gateway endpoint ${method} /gateway/api${path}`);
        const answer = await handler({params: route.params, query: url.searchParams, readBody: () => readBody(req, appDataBodyLimits[route.name] ?? apiBodyLimit),
            saveBody: (file, maxBytes) => saveBody(req, file, maxBytes)});
        if (answer.file !== undefined) await sendFile(res, answer.status, answer.file);
        else writeJson(res, answer.status, answer.body);
    }

    /** The engine and connection routes; the models routes are ModelsApi's. */
    private readonly handlers: GatewayHandlers = {
        state: async () => this.answer(),
        startEngine: async ({readBody}) => {
            const body = readObject(await readBody(), []);
            rejectUnknownFields(body, [], ["modelPath", "modelId", "threads"]);
            const threads = optional(body, "threads", [], (value, at) => readInteger(value, at, {min: 1, max: 1024}));
            const modelId = optional(body, "modelId", [], readString);
            if (modelId != null && body.modelPath != null)
                throw new GatewayError(400, "invalid_request", "invalid_request_error", "give modelPath or modelId, not both");
            // A library model by id; else the path given, the last model, or the library's default model.
            const modelPath = modelId != null ? await this.libraryModelPath(modelId)
                : optional(body, "modelPath", [], readString) ?? (this.supervisor.modelPath() == null ? (await this.library?.defaultModel())?.path : undefined);
            if (modelPath == null && this.supervisor.modelPath() == null)
                throw new GatewayError(400, "invalid_request", "invalid_request_error", "modelPath: is required, no model has been chosen yet");
            // A failed start is reported in the state (status `crashed`, `error`), which is the answer either way.
            await this.supervisor.start(modelPath, {threads}).catch(() => undefined);
            return this.answer();
        },
        // For scripts on this machine (View code): the page can already drive the engine through /local, so the
        // gateway session that guards this route guards the same power.
        engineKey: async () => ({status: 200, body: {key: this.supervisor.authorization().slice("Bearer ".length)}}),
        setEnginePort: async ({readBody}) => {
            const body = readObject(await readBody(), []);
            rejectUnknownFields(body, [], ["port"]);
            const port = required(body, "port", [], (value, at) => readInteger(value, at, {min: 0, max: 65535}));
            if (port !== 0 && port < lowestEnginePort)
                throw new GatewayError(400, "invalid_request", "invalid_request_error",
                    `port: must be 0 (a free port at every start) or ${lowestEnginePort} to 65535; lower ports need administrator rights`);
            // The port already saved and in use; a port the engine moved to for this launch is saved when chosen.
            if (port === this.supervisor.port() && (this.engineSettings == null || this.engineSettings.port === port)) return this.answer();
            const {status, url} = this.supervisor.status();
            // The port the engine runs on now (a free one it was given) is ours to keep; another program holds any other taken one.
            const current = url != null && new URL(url).port === String(port);
            if (port !== 0 && !current && await checkPort(port) === "in_use")
                throw new GatewayError(409, "port_in_use", "invalid_request_error", portInUseMessage(port));
            await this.engineSettings?.setPort(port);
            // A running engine moves at once; a stopped one listens there at its next start. A failed start is in the state.
            // A saved port is kept as the launch's is: taken by another program at a later start, the engine moves and says so.
            const keep = this.engineSettings != null;
            if ((status === "running" || status === "starting") && !current) await this.supervisor.start(undefined, {port, keep}).catch(() => undefined);
            else this.supervisor.setPort(port, {keep});
            return this.answer();
        },
        setLocalKey: async ({readBody}) => {
            const body = readObject(await readBody(), []);
            rejectUnknownFields(body, [], ["secret"]);
            await this.localKey.set(body.secret, (id, key) => this.storeKey(id, key));
            return this.answer();
        },
        clearLocalKey: async () => {
            await this.localKey.clear();
            return this.answer();
        },
        stopEngine: async () => {
            await this.supervisor.stop();
            return this.answer();
        },
        addConnection: async ({readBody}) => {
            const input = readRemoteProfileInput(await readBody());
            const profile = this.connections.createRemote(input);
            // The key is stored first: a refused key must not leave a profile behind that cannot authenticate.
            if (input.apiKey != null) await this.storeKey(profile.id, input.apiKey);
            await this.connections.add(profile);
            return {status: 201, body: {...this.state(), connection: {...profile, kind: "remote", hasKey: input.apiKey != null}}};
        },
        deleteConnection: async ({params}) => {
            await this.connections.remove(params.id);
            await this.vault.delete(params.id);
            return this.answer();
        },
        activateConnection: async ({params}) => {
            await this.connections.activate(params.id);
            return this.answer();
        }
    };

    private async answer(): Promise<GatewayAnswer> {
        return {status: 200, body: this.state()};
    }

    private async libraryModelPath(id: string): Promise<string> {
        if (this.library == null) throw new GatewayError(404, "not_found", "invalid_request_error", "this gateway has no model library");
        try {
            return (await this.library.get(id)).path;
        } catch (error) {
            // The built-in model is listed beside the library's (ModelsApi), so it loads by its id too.
            if (id === embeddedModel.id && hasEmbeddedModel()) return embeddedModelPath;
            throw new GatewayError(404, "model_not_found", "invalid_request_error", (error as Error).message);
        }
    }

    /** Saves a key; when only plaintext storage is possible, asks the user once (Electron dialog) before refusing. */
    private async storeKey(id: string, key: string) {
        try {
            await this.vault.set(id, key);
        } catch (error) {
            const canAsk = error instanceof KeyVaultError && error.code === "plaintext_refused"
                && this.confirmPlaintextKeyStorage != null && this.vault.acceptPlaintextFallback != null;
            if (!canAsk || !await this.confirmPlaintextKeyStorage!()) throw error;
            await this.vault.acceptPlaintextFallback!();
            await this.vault.set(id, key);
        }
    }
}

type Route = "local" | "remote" | "api" | "static";

function routeOf(pathname: string): Route {
    const under = (prefix: string) => pathname === prefix || pathname.startsWith(prefix + "/");
    if (under("/local")) return "local";
    if (under("/remote")) return "remote";
    if (under("/gateway/api")) return "api";
    return "static";
}

/** Gateway API bodies are JSON, small but for the app-data routes' (`maxBytes`); an empty body (a bare POST) reads as `{}`. */
async function readBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
    if (!hasBody(req)) return {};
    return readJsonBody(req, {maxBytes, timeoutMs: apiBodyTimeoutMs});
}

/** Streams a raw body into `file` (0600), refused with a 413 as soon as it passes `maxBytes`; a partial file is removed. */
async function saveBody(req: IncomingMessage, file: string, maxBytes: number): Promise<number> {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) throw new ApiError(413, "payload_too_large", `the request body exceeds the limit of ${maxBytes} bytes`);
    let size = 0;
    const limit = new Transform({transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? new ApiError(413, "payload_too_large", `the request body exceeds the limit of ${maxBytes} bytes`) : null, chunk);
    }});
    try {
        await pipeline(req, limit, createWriteStream(file, {mode: 0o600}));
    } catch (error) {
        await rm(file, {force: true});
        throw error;
    }
    return size;
}

/** A file as a download, never cached; removed once sent (or once the client went away) when asked. */
async function sendFile(res: ServerResponse, status: number, file: NonNullable<GatewayAnswer["file"]>) {
    try {
        const {size} = await stat(file.path);
        res.writeHead(status, {
            "Content-Type": file.contentType,
            "Content-Length": size,
            "Content-Disposition": `attachment; filename="${file.name.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff"
        });
        await pipeline(createReadStream(file.path), res);
    } finally {
        if (file.removeAfter) await rm(file.path, {force: true});
    }
}

function engineStopped(status: string) {
    return new GatewayError(503, "service_unavailable", "api_error",
        `the local engine is not running (status: ${status}); start it from the app or POST /gateway/api/engine/start`);
}

function vaultError(error: KeyVaultError) {
    return new GatewayError(error.code === "decrypt_failed" ? 500 : 409, error.code === "plaintext_refused" ? "insecure_key_storage" : error.code,
        "api_error", error.message);
}
