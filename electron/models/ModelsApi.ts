import path from "node:path";
import {describeEmbeddedModel} from "../../native/library/embeddedModel.ts";
import {ModelLibrary, ModelLibraryError} from "../../native/library/ModelLibrary.ts";
import {fail, optional, readBoolean, readEnum, readNumber, readObject, readString, rejectUnknownFields} from "../../protocol/validation.ts";
import type {EngineLifecycle} from "../engine/EngineLifecycle.ts";
import type {EngineSupervisor} from "../engine/EngineSupervisor.ts";
import {GatewayError, type GatewayAnswer, type GatewayCall, type GatewayHandlers} from "../api/answers.ts";
import type {ModelDownloadRequest, ModelDownloads} from "./ModelDownloads.ts";
import {type CatalogModel, type EngineLifecycleSettings, type ModelsState, modelRoles} from "../../protocol/gateway/contract.ts";

const maxIdleMinutes = 7 * 24 * 60;

/** The gateway's `/gateway/api/models...` routes (contract: protocol/gateway). */
export class ModelsApi {
    private gpuReport?: Promise<unknown>;

    public constructor(
        private readonly library: ModelLibrary,
        private readonly downloads: ModelDownloads,
        private readonly supervisor: EngineSupervisor,
        private readonly lifecycle: EngineLifecycle
    ) {}

    public async state(): Promise<ModelsState> {
        const [listing, builtIn] = await Promise.all([this.library.list(), describeEmbeddedModel()]);
        const status = this.supervisor.status();
        const modelPath = status.model ?? this.supervisor.modelPath();
        return {
            ...listing,
            builtIn,
            // A vision model counts as installed once its projector is paired with it; until then Download fetches
            // what is missing (the model already present is kept).
            catalog: this.downloads.catalog.map((entry) => ({...entry, installedId: listing.models
                .find((model) => model.id === fileOf(entry) && (entry.projector == null || model.mmproj != null))?.id})),
            active: {
                status: status.status,
                modelPath,
                modelId: [...listing.models, ...builtIn != null ? [builtIn] : []].find((model) => model.path === modelPath)?.id,
                ...(status.mmproj != null ? {mmproj: path.basename(status.mmproj)} : {}),
                unloadedForIdle: this.lifecycle.idleUnloaded
            },
            downloads: this.downloads.list(),
            settings: this.lifecycle.settings()
        };
    }

    /** The `/gateway/api/models...` routes of the gateway's route table (protocol/gateway/routes.ts). */
    public readonly handlers: GatewayHandlers = withLibraryErrors({
        models: async () => this.answer(),
        gpu: async ({query}) => {
            // Detection loads GPU libraries, so it runs in a child process, once per gateway unless `?refresh` asks again.
            if (query.has("refresh")) this.gpuReport = undefined;
            this.gpuReport ??= this.supervisor.runCli(["gpu", "--json"]).then((text) => JSON.parse(text) as unknown);
            this.gpuReport.catch(() => this.gpuReport = undefined);
            return {status: 200, body: {gpu: await this.gpuReport}};
        },
        downloads: async () => ({status: 200, body: {downloads: this.downloads.list()}}),
        download: async ({readBody}) => ({status: 202, body: {download: this.downloads.start(readDownloadRequest(await readBody(), this.downloads.catalog))}}),
        cancelDownload: async ({params}) => ({status: 200, body: {download: await this.downloads.cancel(params.id)}}),
        configure: async ({readBody}) => {
            this.lifecycle.configure(readSettings(await readBody()));
            return this.answer();
        },
        setRole: async ({readBody}) => {
            const body = readObject(await readBody(), []);
            rejectUnknownFields(body, [], ["role", "modelId"]);
            const role = readEnum(body.role, ["role"], modelRoles);
            if (body.modelId !== null && typeof body.modelId !== "string") fail(["modelId"], "must be a model id or null");
            await this.library.setRole(role, body.modelId as string | null);
            return this.answer();
        },
        setDefault: async ({params}) => {
            await this.library.setDefault(decodeId(params.id));
            return this.answer();
        },
        removeModel: async ({params}) => {
            const id = decodeId(params.id);
            const {path: filePath} = await this.library.get(id);
            const status = this.supervisor.status();
            if (status.status !== "stopped" && status.status !== "crashed" && status.model === filePath)
                throw new GatewayError(409, "model_in_use", "invalid_request_error", `${id} is loaded by the engine: stop it first`);
            await this.library.remove(id);
            return this.answer();
        }
    });

    private async answer(): Promise<GatewayAnswer> {
        return {status: 200, body: await this.state()};
    }
}

/** A library error is the caller's: a 404 for an unknown model, else a 400, with the library's message. */
function withLibraryErrors(handlers: GatewayHandlers): GatewayHandlers {
    return Object.fromEntries(Object.entries(handlers).map(([name, handler]) => [name, async (call: GatewayCall) => {
        try {
            return await handler!(call);
        } catch (error) {
            if (error instanceof ModelLibraryError)
                throw new GatewayError(error.code === "model_not_found" ? 404 : 400, error.code, "invalid_request_error", error.message);
            throw error;
        }
    }]));
}

function decodeId(text: string): string {
    try {
        return decodeURIComponent(text);
    } catch {
        throw new GatewayError(400, "invalid_model_id", "invalid_request_error", `not a model id: ${text}`);
    }
}

/** The library file name a catalog entry is saved as (the last segment of its hf: URI). */
function fileOf(entry: CatalogModel): string {
    return entry.uri.split("/").at(-1) ?? "";
}

function readDownloadRequest(value: unknown, catalog: readonly CatalogModel[]): ModelDownloadRequest {
    const body = readObject(value, []);
    rejectUnknownFields(body, [], ["source", "catalogId", "sha256", "fileName"]);
    const catalogId = optional(body, "catalogId", [], readString);
    let source = optional(body, "source", [], readString);
    let projector: CatalogModel["projector"];
    if (catalogId != null) {
        const entry = catalog.find((model) => model.id === catalogId);
        if (entry == null) fail(["catalogId"], `unknown catalog model; one of ${catalog.map((model) => model.id).join(", ")}`);
        if (source != null) fail(["source"], "give source or catalogId, not both");
        source = entry.uri;
        projector = entry.projector;
    }
    if (source == null) fail(["source"], "is required (a URL or hf:<user>/<repo>/<file.gguf>), or give catalogId");
    const sha256 = optional(body, "sha256", [], readString);
    if (sha256 != null && !/^[0-9a-fA-F]{64}$/.test(sha256)) fail(["sha256"], "must be 64 hex digits");
    return {source, sha256, fileName: optional(body, "fileName", [], readString), ...(projector != null ? {projector} : {})};
}

function readSettings(value: unknown): Partial<EngineLifecycleSettings> {
    const body = readObject(value, []);
    rejectUnknownFields(body, [], ["autoStart", "idleUnloadMinutes"]);
    return {
        autoStart: optional(body, "autoStart", [], readBoolean),
        idleUnloadMinutes: optional(body, "idleUnloadMinutes", [], (item, at) => readNumber(item, at, {min: 0, max: maxIdleMinutes}))
    };
}
