// The gateway's API contract (`/gateway/api/...`): the shapes the Electron main process (or `npm run web`) sends and
// the renderer reads. Both sides import these types from here, so they cannot drift; the routes are in `routes.ts`.
import {reasoningModelId} from "../chat/parseChatRequest.ts";
import {modelIds} from "../limits.ts";

/** The model ids a library model can be assigned to serve; `svc-1` is the library's default model. */
export const modelRoles = [modelIds.chat, reasoningModelId, modelIds.decision] as const;

export type ModelRole = typeof modelRoles[number];

/** node-llama-cpp's GPU types (`LlamaGpuType`): false is the CPU. */
export type LlamaGpuType = "cuda" | "vulkan" | "metal" | false;

/** What a GGUF file says about itself, read from its header only (no weights are loaded). */
export type ModelFileInfo = {
    /** `general.name`, when the file has one. */
    name?: string,
    /** `general.architecture`, e.g. `llama`, `qwen3`. */
    architecture: string,
    /** Weights counted from the tensor shapes. */
    parameters?: number,
    /** `general.size_label` (e.g. `1.7B`) when present, else the count above written the same way. */
    parameterLabel?: string,
    /** File type (`Q8_0`, `Q4_K_M`, `F16` ...) from `general.file_type`, else the most common tensor type. */
    quantization?: string,
    /** Training context length, the largest context worth creating. */
    contextLength?: number,
    layers?: number,
    hasChatTemplate: boolean,
    /** node-llama-cpp's chat wrapper for the file, e.g. `ChatML`, `Qwen`, `Jinja`; `General` when it has no chat format. */
    chatWrapper: string,
    /** The chat format has a thought segment: the model can reason and `svc-1-reasoning` can be served with it. */
    canThink: boolean,
    /** The chat format has its own tool-call syntax (or the template renders `tools`). */
    canCallTools: boolean,
    /** Present when the file is a vision projector (an mmproj: `general.type` "mmproj" or `clip.*` keys), not a model. */
    projector?: {type?: string}
};

/** One GGUF file of the library; its id is its file name. */
export type LibraryModel = {
    id: string,
    path: string,
    sizeBytes: number,
    modifiedAt: string,
    /** What the header says; absent when it could not be read (see `error`). */
    info?: ModelFileInfo,
    error?: string,
    /** The model ids this file is assigned to serve; the default model serves `svc-1`. */
    roles: ModelRole[],
    isDefault: boolean,
    /** The model that ships with the app (resources/models): served when the library is empty; not a library file. */
    builtIn?: boolean,
    /** The id of its vision projector (mmproj) in the library, paired by name: the model then reads images. */
    mmproj?: string
};

/** A `.part` file left by an interrupted download: pulling the same URL again resumes it. */
export type PartialDownload = {fileName: string, receivedBytes: number, url?: string};

export type LibraryListing = {
    dir: string,
    models: LibraryModel[],
    /** The model `serve` uses without `--model`: the chosen one, else the first readable model by name. */
    defaultId?: string,
    /** Whether `defaultId` was chosen (POST .../default, `svc-studio models default`) rather than implied. */
    defaultIsExplicit: boolean,
    roles: Partial<Record<ModelRole, string>>,
    partial: PartialDownload[],
    /** Vision projector files (mmproj), listed apart from the models they extend; `pairedWith` is that model's id. */
    projectors?: Array<{id: string, path: string, sizeBytes: number, pairedWith?: string}>
};

/** A recommended model: a real, well-known GGUF repository on Hugging Face, fetched with `npm run pull -- <uri>`. */
export type CatalogModel = {
    id: string,
    name: string,
    /** `hf:<user>/<repo>/<file>`. */
    uri: string,
    /** The file's size, approximately (rounded; the real size is what the server sends). */
    approxSizeBytes: number,
    sizeLabel: string,
    parameters: string,
    quantization: string,
    /** What it is recommended for. */
    roles: ModelRole[],
    description: string,
    license: string,
    /** A vision model's projector (mmproj), downloaded with it and saved as `fileName`, which pairs it by name. */
    projector?: {uri: string, fileName: string, approxSizeBytes: number, sizeLabel: string}
};

export type GpuBackendType = "cuda" | "vulkan" | "metal";

/** What happened when node-llama-cpp was asked for a backend (`getLlama({gpu, build: "never"})`); absent when not tried. */
export type BackendTry = {ok: true, devices: string[], vramTotalBytes: number, vramFreeBytes: number} | {ok: false, error: string};

export type GpuBackendReport = {
    type: GpuBackendType,
    usable: boolean,
    devices: string[],
    vramTotalBytes?: number,
    vramFreeBytes?: number,
    /** Why it is not usable, in words a person can act on (absent when usable). */
    reason?: string
};

/** What the machine has, independent of node-llama-cpp: the facts the GPU report explains itself with. */
export type GpuHardware = {
    platform: string,
    arch: string,
    /** `/dev/nvidia0` exists (Linux). */
    nvidiaDeviceFile: boolean,
    /** GPUs `nvidia-smi` lists (empty when it is missing or fails). */
    nvidiaSmiGpus: string[],
    /** The NVIDIA driver's user-space library (libcuda / libnvidia-ml) is installed. */
    nvidiaDriverLibrary: boolean,
    /** CUDA runtime libraries llama.cpp's CUDA build needs that were not found (Linux). */
    missingCudaLibraries: string[],
    /** The Vulkan loader (libvulkan) is installed. */
    vulkanLoader: boolean
};

export type GpuReport = {
    platform: string,
    arch: string,
    /** What node-llama-cpp's own check (`getLlamaGpuTypes("supported")`) finds usable. */
    nodeLlamaCppSupported: LlamaGpuType[],
    backends: GpuBackendReport[],
    /** The backend `--gpu auto` will use; false: the CPU. */
    best: GpuBackendType | false,
    hardware: GpuHardware
};

export type EngineStatusName = "stopped" | "starting" | "running" | "crashed";

export type EngineStatus = {
    status: EngineStatusName,
    model?: string,
    /**
     * The vision projector (mmproj) the engine loaded with the model, as `serve` reports it: present when the running
     * model reads images (chat, Responses, decisions), absent when a request with an image would be refused.
     */
    mmproj?: string,
    gpu?: string | false,
    threads?: number,
    contextSize?: number,
    parallel?: number,
    error?: string,
    pid?: number,
    /** The engine's own loopback URL while running; the gateway proxies to it and never shows it. */
    url?: string,
    /**
     * The loopback port the engine is started on, kept across restarts and (in the app's data folder) across launches;
     * 0: a free port at every start.
     */
    port?: number,
    /**
     * Set when the port kept from an earlier launch was held by another program at this start, so the engine listens on
     * `port` instead: which port is taken, where the engine is now, and what to do.
     */
    portNotice?: string,
    /** Restarts after crashes since the engine last ran stably. */
    restarts: number
};

/**
 * The ports the app's engine may be given (POST /gateway/api/engine/port): 0, a free port at every start, or one from
 * `lowestEnginePort` up; lower ports need administrator rights on Linux and macOS.
 */
export const lowestEnginePort = 1024;

export type EngineLifecycleSettings = {
    /** A `/local/...` request while the engine is stopped starts it (last model, else the library's default). */
    autoStart: boolean,
    /** Stop the engine after this many minutes without a `/local/...` request; 0 never. */
    idleUnloadMinutes: number
};

/** One download as `GET /gateway/api/models/downloads` shows it. */
export type DownloadJob = {
    id: string,
    source: string,
    url: string,
    fileName: string,
    status: "downloading" | "done" | "failed" | "cancelled",
    receivedBytes: number,
    totalBytes?: number,
    bytesPerSecond: number,
    etaSeconds?: number,
    /** 1 for the first request, more after retries. */
    attempt: number,
    /** The last retry's reason while the download goes on after a fault. */
    retrying?: string,
    error?: {code: string, message: string},
    /** The library model id once done. */
    modelId?: string,
    sha256?: string,
    /**
     * A catalog vision model's projector (mmproj), fetched in the same job once the model is in, and saved as the
     * catalog's `fileName`, which pairs it with the model by name. The job's speed, attempt and retry fields follow
     * whichever file is downloading; it is done when both are.
     */
    projector?: {fileName: string, url: string, receivedBytes: number, totalBytes?: number, done: boolean},
    startedAt: string,
    finishedAt?: string
};

export type DownloadRequest = {source: string, sha256?: string, fileName?: string};

/**
 * `GET /gateway/api/state` (gateway contract); also the answer of every state-changing gateway call. The renderer
 * imports this type (type-only) so both sides share one definition. The engine's loopback URL is included: it is
 * what "View code" shows scripts on this machine (the local engine needs no key).
 */
export type GatewayState = {
    engine: Omit<EngineStatus, "restarts">,
    /**
     * `hasKey` on the local profile: a workspace key is chosen for the app's own requests (the engine holds workspaces),
     * and `keyHint` is its public start (`ck_<lookup>_`, as the admin API lists it); its secret never comes back.
     */
    connections: Array<{id: string, kind: "local" | "remote", name: string, baseUrl?: string, hasKey: boolean, keyHint?: string}>,
    activeConnectionId: string,
    mode: "electron" | "web",
    /**
     * Set when the saved API keys could not be read at this launch: the file was moved aside and the app started
     * without them. Says what was lost and what to do; the connections whose keys were in it have `hasKey` false.
     */
    keysNotice?: string
};

/** `GET /gateway/api/models`: the library, the catalog, the active engine model, downloads and the lifecycle settings. */
export type ModelsState = LibraryListing & {
    /** The built-in model, when this install has it. */
    builtIn?: LibraryModel,
    catalog: Array<CatalogModel & {installedId?: string}>,
    /** `mmproj`: the file name of the projector the running engine loaded (EngineStatus.mmproj): the model reads images. */
    active: {status: string, modelPath?: string, modelId?: string, mmproj?: string, unloadedForIdle: boolean},
    downloads: DownloadJob[],
    settings: EngineLifecycleSettings
};

/**
 * What the app keeps in its data folder through `/gateway/api/app-data/...`: the gateway refuses more of one item (a
 * run, a job's record or table, a result), before anything is written and with the bound's name in the message. The
 * number of runs, jobs and experiments has no bound but the disk: nothing is ever dropped but by the user.
 */
export const appDataLimits = {
    /** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: a document key, run id or job id is a file name. */
    namePattern: "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$",
    /**
     * The gateway's request body limit for one document (POST /app-data/documents/:key), checked before the body is
     * read: the only bound on documents, which the app's database holds with no limit on their count or size.
     */
    maxDocumentRequestBytes: 64 * 1024 * 1024,
    maxHistoryEntryBytes: 16 * 1024 * 1024,
    /** Runs in a page of the history (`GET /app-data/history?limit=`) when no limit is asked, and at most. */
    historyPageSize: 25,
    maxHistoryPageSize: 200,
    maxJobRecordBytes: 4 * 1024 * 1024,
    maxJobTableBytes: 64 * 1024 * 1024,
    maxRowResultBytes: 1024 * 1024,
    /** The response cache: a key (a request body, images included) or an answer bigger than this is not kept. */
    maxCachedResponseBytes: 16 * 1024 * 1024
} as const;

/**
 * `GET /gateway/api/app-data/documents`: every saved document by key, the revision each was last written at (a write
 * names the revision it is based on, and is refused with a 409 `revision_conflict` when another window wrote since),
 * and what could not be read, in sentences the page shows until they are acknowledged. A document whose stored text does
 * not parse has a revision but no value.
 */
export type SavedDocuments = {documents: Record<string, unknown>, revisions: Record<string, number>, problems: string[]};

/**
 * A write of one document, as its query says (`?revision=N&writer=W&sequence=S`): `revision`, the one it is based on
 * (0 or absent: a key new to the writer); `writer` (one page) and `sequence` (its count of writes) let a page's own
 * writes overtake each other (a closing page sends at once) without being taken for another window's.
 */
export type DocumentWriteQuery = {revision?: number, writer?: string, sequence?: number};

/** The `error` of a 409 `revision_conflict`: the envelope of spec §7 with the revision the gateway holds (0: none). */
export type RevisionConflictError = {message: string, type: string, code: "revision_conflict", revision: number};

/** One playground run of the history, as the renderer saves it (its other fields are the renderer's own). */
export type SavedRun = {id: string, createdAt: number, [field: string]: unknown};

/**
 * A page of the run history, newest first (`GET /app-data/history?limit=&after=`): `next` is the `after` of the page
 * that follows (null: this is the last), `total` the runs kept, `problems` sentences about runs that could not be read.
 */
export type SavedRunPage = {entries: SavedRun[], next: string | null, total: number, problems: string[]};

/** A scoring job's record (client/scoring's JobRecord, as far as the gateway reads it). */
export type SavedJobRecord = {
    jobId: string,
    status: "running" | "paused" | "completed" | "cancelled" | "failed",
    totalRows: number | null,
    error: string | null,
    createdAt: number,
    updatedAt: number,
    spec: Record<string, unknown>,
    /** An experiment's pinned baseline: the job id of the kept earlier run its results are compared with. */
    baseline?: string | null
};

/** One row's outcome of a scoring job (client/scoring's RowResult, as far as the gateway reads it). */
export type SavedRowResult = {rowIndex: number, ok: boolean, [field: string]: unknown};

/** An answer of the response cache (client/scoring's CachedResponse): the response body as sent, and how long it took. */
export type SavedCachedResponse = {body: unknown, durationMs: number, storedAt: number};

/** A saved scoring job in the list: its record and what its results count, without the table or the results. */
export type SavedJobInfo = {record: SavedJobRecord, done: number, failed: number, hasTable: boolean};

/**
 * A saved scoring job whole: the table it scores (the renderer's LoadedTable) and its results in row order, and
 * sentences about what of it could not be read (left out).
 */
export type SavedJob = {record: SavedJobRecord, table: unknown, results: SavedRowResult[], problems: string[]};

/** A list of saved jobs (scoring jobs or experiments), newest first, and sentences about those that could not be read. */
export type SavedJobList = {jobs: SavedJobInfo[], problems: string[]};

/** What `acknowledgeItemProblems` is about: the run history, the scoring jobs or the experiments. */
export type SavedItemKind = "run" | "scoring" | "experiment";

/** A cell of a saved dataset's row (client/scoring's CellValue). */
export type SavedCell = string | number | boolean | null;

/** What a saved dataset is besides its rows and bookkeeping: what a write may set. */
export type SavedDatasetFields = {
    name: string,
    columns: string[],
    /** client/experiments ColumnType, one per column. */
    columnTypes: string[],
    labelColumns: string[],
    inputColumns: string[]
};

/**
 * A saved dataset as the list holds it (`GET /gateway/api/app-data/datasets`): everything but its rows, which are read
 * a page at a time. Every write to it or its rows names the revision it is based on; one based on an older revision is
 * refused with a 409 `revision_conflict`.
 */
export type SavedDatasetInfo = SavedDatasetFields & {id: string, rowCount: number, createdAt: number, updatedAt: number, revision: number};

/** One change to a dataset's rows, by 0-based position: applied in order, in one transaction with the others of its write. */
export type DatasetRowEdit =
    | {op: "set", index: number, cells: SavedCell[]}
    | {op: "insert", index: number, cells: SavedCell[]}
    | {op: "delete", index: number}
    | {op: "append", rows: SavedCell[][]};

/** A write to a saved dataset: fields to change and row edits, all committed together or none. */
export type DatasetChange = {revision: number, fields?: Partial<SavedDatasetFields>, edits?: DatasetRowEdit[]};

/** A whole dataset written at once (created, imported, or restored by Undo): `revision` 0 for a new one. */
export type DatasetWrite = {revision: number, fields: SavedDatasetFields, rows: SavedCell[][], createdAt?: number};

/** A page of a dataset's rows, from `offset`, with the count and revision they were read at. */
export type DatasetRowsPage = {rows: SavedCell[][], offset: number, total: number, revision: number};

/** Rows one page of `GET /app-data/datasets/:id/rows` holds at most. */
export const datasetPageLimit = 10_000;

/**
 * The request body limit of a whole dataset's write (an import): checked before the body is read, and named in the
 * message of a write over it. A bigger file is split or sampled before it is imported.
 */
export const maxDatasetWriteBytes = 256 * 1024 * 1024;

/** An origin whose browser storage an earlier version of the app used, to move in: `url` is the page that reads it. */
export type EarlierOrigin = {port: number, url: string};

/** What the reading page at an earlier origin found: its `svc-studio*` localStorage and the IndexedDB stores earlier versions wrote. */
export type EarlierStorage = {localStorage: Record<string, string>, runs: unknown[], jobs: unknown[], results: unknown[], tables: unknown[]};

/** A saved prompt or question set as the list shows it (`GET /app-data/prompts`): its versions count up from 1. */
export type SavedPromptItem = {itemId: string, itemName: string, kind: "chat" | "responses" | "decision", latest: number, updatedAt: number};

/** One saved version (client/experiments PromptVersion): `prompt` is the chat prompt or question set as it was saved. */
export type SavedPromptVersion = {itemId: string, itemName: string, version: number, note: string, createdAt: number, prompt: unknown};

/** A new version of an item (a new item when none of that id exists): the gateway gives it its number. */
export type NewPromptVersion = {itemName: string, kind: SavedPromptItem["kind"], note: string, prompt: unknown};
