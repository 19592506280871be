import {modelIds} from "../../protocol/limits.ts";
import os from "node:os";
import path from "node:path";
import {mkdir, readdir, readFile, rm, stat} from "node:fs/promises";
import {readModelFileInfo} from "./modelFile.ts";
import {pairProjectors} from "./projectors.ts";
import {writeJsonAtomic} from "../../base/node/writeFileAtomic.ts";
import {userDataDir} from "../../base/node/userDataDir.ts";
import {type LibraryListing, type LibraryModel, type ModelFileInfo, type ModelRole, type PartialDownload, modelRoles} from "../../protocol/gateway/contract.ts";

/** A library request that names no model of the library, or not by a valid id; its message is shown as is. */
export class ModelLibraryError extends Error {
    public readonly code: "model_not_found" | "invalid_model_id";

    public constructor(code: ModelLibraryError["code"], message: string) {
        super(message);
        this.name = "ModelLibraryError";
        this.code = code;
    }
}

export function isModelRole(value: string): value is ModelRole {
    return (modelRoles as readonly string[]).includes(value);
}

/** The model library folder: `$SVC_STUDIO_MODELS_DIR` when set, else `models` in the user data folder (userDataDir.ts). */
export function modelsDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
    const configured = env.SVC_STUDIO_MODELS_DIR?.trim();
    if (configured) return path.resolve(configured);
    return path.join(userDataDir(env, platform, home), "models");
}

/** `library.json`: what the user chose. The files themselves are the listing; nothing else is stored. */
type LibrarySettings = {version: 1, defaultModel?: string, roles: Partial<Record<ModelRole, string>>};

const settingsFile = "library.json";
/** Sidecar of a `.part` file (written by downloadModel). */
export const partSuffix = ".part";
export const partStateSuffix = ".part.json";

/**
 * The model library: a folder of GGUF files plus `library.json` (default model and the role each file serves).
 * Header reads are cached by size and modification time, so listing a folder of large models stays cheap.
 */
export class ModelLibrary {
    public readonly dir: string;
    private readonly infoCache = new Map<string, {sizeBytes: number, mtimeMs: number, info?: ModelFileInfo, error?: string}>();
    private writes: Promise<unknown> = Promise.resolve();

    public constructor(dir: string = modelsDir()) {
        this.dir = path.resolve(dir);
    }

    /** The path of model `id` in the library; refuses ids that are not a plain `.gguf` file name. */
    public pathOf(id: string): string {
        if (id === "" || id !== path.basename(id) || id.includes("\\") || id.startsWith(".") || !id.toLowerCase().endsWith(".gguf"))
            throw new ModelLibraryError("invalid_model_id", `not a model id of the library (a .gguf file name): ${JSON.stringify(id)}`);
        return path.join(this.dir, id);
    }

    public async list(): Promise<LibraryListing> {
        const settings = await this.readSettings();
        const entries = await readdir(this.dir, {withFileTypes: true}).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return [];
            throw error;
        });
        const names = entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => entry.name).sort();
        const described: Array<Omit<LibraryModel, "roles" | "isDefault">> = [];
        // A file that vanished meanwhile, or a dangling link, is left out rather than failing the whole listing.
        for (const name of names.filter((name) => name.toLowerCase().endsWith(".gguf") && !name.startsWith("."))) {
            const model = await this.describe(name).catch(() => undefined);
            if (model != null) described.push(model);
        }
        // Vision projectors are no models to serve or choose: they are listed apart, each paired by name (projectors.ts).
        const projectorFiles = described.filter((file) => file.info?.projector != null);
        const pairs = pairProjectors(described.filter((file) => file.info?.projector == null).map((file) => file.id), projectorFiles.map((file) => file.id));
        const models = described.filter((file) => file.info?.projector == null).map((file) => pairs.has(file.id) ? {...file, mmproj: pairs.get(file.id)} : file);
        const pairedWith = new Map([...pairs].map(([model, projector]) => [projector, model]));
        const partial = (await Promise.all(names.filter((name) => name.endsWith(partSuffix)).map((name) => this.describePart(name).catch(() => undefined))))
            .filter((part): part is PartialDownload => part != null);

        const present = new Set(models.map((model) => model.id));
        const explicitDefault = settings.defaultModel != null && present.has(settings.defaultModel) ? settings.defaultModel : undefined;
        const defaultId = explicitDefault ?? models.find((model) => model.info != null)?.id;
        const roles: Partial<Record<ModelRole, string>> = {};
        for (const role of modelRoles) {
            const id = role === modelIds.chat ? defaultId : settings.roles[role];
            if (id != null && present.has(id)) roles[role] = id;
        }
        return {
            dir: this.dir,
            models: models.map((model) => ({
                ...model,
                roles: modelRoles.filter((role) => roles[role] === model.id),
                isDefault: model.id === defaultId
            })),
            defaultId,
            defaultIsExplicit: explicitDefault != null,
            roles,
            partial,
            projectors: projectorFiles.map((file) => ({id: file.id, path: file.path, sizeBytes: file.sizeBytes, ...(pairedWith.has(file.id) ? {pairedWith: pairedWith.get(file.id)} : {})}))
        };
    }

    public async get(id: string): Promise<LibraryModel> {
        this.pathOf(id);
        const model = (await this.list()).models.find((candidate) => candidate.id === id);
        if (model == null) throw new ModelLibraryError("model_not_found", `no model ${JSON.stringify(id)} in the library ${this.dir}`);
        return model;
    }

    public async defaultModel(): Promise<LibraryModel | undefined> {
        const listing = await this.list();
        return listing.models.find((model) => model.id === listing.defaultId);
    }

    /** The model assigned to `role`; `svc-1` is the default model. */
    public async modelForRole(role: ModelRole): Promise<LibraryModel | undefined> {
        const listing = await this.list();
        return listing.models.find((model) => model.id === listing.roles[role]);
    }

    public async setDefault(id: string): Promise<void> {
        await this.get(id);
        await this.updateSettings((settings) => ({...settings, defaultModel: id}));
    }

    /** Assigns `id` to serve `role` (null clears it); assigning `svc-1` is choosing the default model. */
    public async setRole(role: string, id: string | null): Promise<void> {
        if (!isModelRole(role)) throw new ModelLibraryError("invalid_model_id", `unknown role ${JSON.stringify(role)}; roles: ${modelRoles.join(", ")}`);
        if (id != null) await this.get(id);
        if (role === modelIds.chat) {
            await this.updateSettings((settings) => ({...settings, defaultModel: id ?? undefined}));
            return;
        }
        await this.updateSettings((settings) => ({...settings, roles: {...settings.roles, [role]: id ?? undefined}}));
    }

    /** Makes a newly added model the default when the user has not chosen one yet (first pull, first download). */
    public async adopt(id: string): Promise<void> {
        await this.get(id);
        await this.updateSettings((settings) => settings.defaultModel != null && settings.defaultModel !== "" ? settings : {...settings, defaultModel: id});
    }

    /** Deletes a model file and forgets its roles. */
    public async remove(id: string): Promise<void> {
        const filePath = (await this.get(id)).path;
        await rm(filePath);
        this.infoCache.delete(filePath);
        await this.updateSettings((settings) => ({
            ...settings,
            defaultModel: settings.defaultModel === id ? undefined : settings.defaultModel,
            roles: Object.fromEntries(Object.entries(settings.roles).filter(([, value]) => value !== id))
        }));
    }

    private async describe(id: string): Promise<Omit<LibraryModel, "roles" | "isDefault">> {
        const filePath = path.join(this.dir, id);
        const stats = await stat(filePath);
        let cached = this.infoCache.get(filePath);
        if (cached == null || cached.sizeBytes !== stats.size || cached.mtimeMs !== stats.mtimeMs) {
            cached = await readModelFileInfo(filePath)
                .then((info) => ({sizeBytes: stats.size, mtimeMs: stats.mtimeMs, info}))
                .catch((error: Error) => ({sizeBytes: stats.size, mtimeMs: stats.mtimeMs, error: error.message}));
            this.infoCache.set(filePath, cached);
        }
        return {id, path: filePath, sizeBytes: stats.size, modifiedAt: stats.mtime.toISOString(), info: cached.info, error: cached.error};
    }

    private async describePart(name: string): Promise<PartialDownload> {
        const filePath = path.join(this.dir, name);
        const [stats, state] = await Promise.all([
            stat(filePath),
            readFile(filePath.slice(0, -partSuffix.length) + partStateSuffix, "utf8").then((text) => JSON.parse(text) as {url?: unknown}).catch(() => undefined)
        ]);
        return {fileName: name.slice(0, -partSuffix.length), receivedBytes: stats.size, url: typeof state?.url === "string" ? state.url : undefined};
    }

    private async readSettings(): Promise<LibrarySettings> {
        const text = await readFile(path.join(this.dir, settingsFile), "utf8").catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return undefined;
            throw error;
        });
        if (text == null) return {version: 1, roles: {}};
        // A hand-edited file that does not parse is not worth refusing to start over: it is read as empty.
        const parsed = safeParse(text);
        const roles: Partial<Record<ModelRole, string>> = {};
        for (const [role, id] of Object.entries(parsed?.roles ?? {}))
            if (isModelRole(role) && typeof id === "string") roles[role] = id;
        return {version: 1, defaultModel: typeof parsed?.defaultModel === "string" ? parsed.defaultModel : undefined, roles};
    }

    /** Read-modify-write, one at a time, so two quick choices in the app do not undo each other. */
    private updateSettings(change: (settings: LibrarySettings) => LibrarySettings): Promise<void> {
        const next = this.writes.then(async () => {
            const settings = change(await this.readSettings());
            await mkdir(this.dir, {recursive: true});
            await writeJsonAtomic(path.join(this.dir, settingsFile), settings);
        });
        this.writes = next.catch(() => undefined);
        return next;
    }
}

function safeParse(text: string): {defaultModel?: unknown, roles?: Record<string, unknown>} | undefined {
    try {
        const value: unknown = JSON.parse(text);
        return typeof value === "object" && value != null ? value as {defaultModel?: unknown, roles?: Record<string, unknown>} : undefined;
    } catch {
        return undefined;
    }
}
