// The gateway's routes under `/gateway/api`, as one table: the gateway dispatches on it and the renderer's typed
// client calls through it, so a route's method, path and answer type are written once.
import type {NewPromptVersion, SavedPromptItem, SavedPromptVersion, EarlierOrigin, EarlierStorage, DatasetChange, DatasetRowsPage, DatasetWrite, SavedDatasetInfo, DocumentWriteQuery, DownloadJob, EngineLifecycleSettings, GatewayState, GpuReport, ModelRole, ModelsState, SavedCachedResponse, SavedDocuments, SavedItemKind, SavedJob, SavedJobList, SavedJobRecord, SavedRowResult, SavedRun, SavedRunPage} from "./contract.ts";
import {type RouteMatch, type RouteMethod, type RouteSend, routeTable} from "../routeTable.ts";

export type GatewayMethod = RouteMethod;

/** `:name` segments are parameters, sent URL-encoded. */
export const gatewayRoutes = {
    state: {method: "GET", path: "/state"},
    startEngine: {method: "POST", path: "/engine/start"},
    stopEngine: {method: "POST", path: "/engine/stop"},
    engineKey: {method: "GET", path: "/engine/key"},
    setEnginePort: {method: "POST", path: "/engine/port"},
    setLocalKey: {method: "POST", path: "/engine/workspace-key"},
    clearLocalKey: {method: "DELETE", path: "/engine/workspace-key"},
    addConnection: {method: "POST", path: "/connections"},
    deleteConnection: {method: "DELETE", path: "/connections/:id"},
    activateConnection: {method: "POST", path: "/connections/:id/activate"},
    models: {method: "GET", path: "/models"},
    gpu: {method: "GET", path: "/models/gpu"},
    downloads: {method: "GET", path: "/models/downloads"},
    download: {method: "POST", path: "/models/download"},
    cancelDownload: {method: "DELETE", path: "/models/downloads/:id"},
    configure: {method: "POST", path: "/models/settings"},
    setRole: {method: "POST", path: "/models/roles"},
    setDefault: {method: "POST", path: "/models/:id/default"},
    removeModel: {method: "DELETE", path: "/models/:id"},
    appDocuments: {method: "GET", path: "/app-data/documents"},
    putAppDocument: {method: "POST", path: "/app-data/documents/:key"},
    deleteAppDocument: {method: "DELETE", path: "/app-data/documents/:key"},
    acknowledgeDocumentProblems: {method: "POST", path: "/app-data/document-problems/acknowledge"},
    promptItems: {method: "GET", path: "/app-data/prompts"},
    promptVersions: {method: "GET", path: "/app-data/prompts/:id/versions"},
    addPromptVersion: {method: "POST", path: "/app-data/prompts/:id/versions"},
    deletePromptItem: {method: "DELETE", path: "/app-data/prompts/:id"},
    restorePromptItem: {method: "POST", path: "/app-data/prompts/:id"},
    earlierOrigins: {method: "GET", path: "/app-data/earlier-origins"},
    importEarlierOrigin: {method: "POST", path: "/app-data/earlier-origins/:port"},
    exportAppData: {method: "GET", path: "/app-data/backup"},
    importAppData: {method: "POST", path: "/app-data/backup"},
    datasets: {method: "GET", path: "/app-data/datasets"},
    datasetRows: {method: "GET", path: "/app-data/datasets/:id/rows"},
    putDataset: {method: "POST", path: "/app-data/datasets/:id"},
    changeDataset: {method: "POST", path: "/app-data/datasets/:id/changes"},
    deleteDataset: {method: "DELETE", path: "/app-data/datasets/:id"},
    runHistory: {method: "GET", path: "/app-data/history"},
    addRun: {method: "POST", path: "/app-data/history"},
    deleteRun: {method: "DELETE", path: "/app-data/history/:id"},
    clearHistory: {method: "DELETE", path: "/app-data/history"},
    scoringJobs: {method: "GET", path: "/app-data/scoring-jobs"},
    createScoringJob: {method: "POST", path: "/app-data/scoring-jobs"},
    scoringJob: {method: "GET", path: "/app-data/scoring-jobs/:id"},
    updateScoringJob: {method: "POST", path: "/app-data/scoring-jobs/:id"},
    addScoringResult: {method: "POST", path: "/app-data/scoring-jobs/:id/results"},
    deleteScoringErrors: {method: "DELETE", path: "/app-data/scoring-jobs/:id/errors"},
    deleteScoringJob: {method: "DELETE", path: "/app-data/scoring-jobs/:id"},
    acknowledgeItemProblems: {method: "POST", path: "/app-data/item-problems/acknowledge"},
    experiments: {method: "GET", path: "/app-data/experiments"},
    createExperiment: {method: "POST", path: "/app-data/experiments"},
    experiment: {method: "GET", path: "/app-data/experiments/:id"},
    updateExperiment: {method: "POST", path: "/app-data/experiments/:id"},
    addExperimentCell: {method: "POST", path: "/app-data/experiments/:id/cells"},
    deleteExperiment: {method: "DELETE", path: "/app-data/experiments/:id"},
    cachedResponse: {method: "POST", path: "/app-data/response-cache/lookup"},
    putCachedResponse: {method: "POST", path: "/app-data/response-cache"}
} as const satisfies Record<string, {method: GatewayMethod, path: string}>;

export type GatewayRouteName = keyof typeof gatewayRoutes;

/** What each route takes (body) and answers. */
export type GatewayRouteTypes = {
    state: {body: undefined, answer: GatewayState},
    startEngine: {body: ({modelPath?: string} | {modelId: string}) & {threads?: number}, answer: GatewayState},
    stopEngine: {body: Record<string, never>, answer: GatewayState},
    engineKey: {body: undefined, answer: {key: string}},
    setEnginePort: {body: {port: number}, answer: GatewayState},
    setLocalKey: {body: {secret: string}, answer: GatewayState},
    clearLocalKey: {body: undefined, answer: GatewayState},
    addConnection: {body: {name: string, baseUrl: string, apiKey?: string}, answer: GatewayState & {connection: GatewayState["connections"][number]}},
    deleteConnection: {body: undefined, answer: GatewayState},
    activateConnection: {body: Record<string, never>, answer: GatewayState},
    models: {body: undefined, answer: ModelsState},
    gpu: {body: undefined, answer: {gpu: GpuReport}},
    downloads: {body: undefined, answer: {downloads: DownloadJob[]}},
    download: {body: {source: string, sha256?: string, fileName?: string} | {catalogId: string, sha256?: string, fileName?: string}, answer: {download: DownloadJob}},
    cancelDownload: {body: undefined, answer: {download: DownloadJob}},
    configure: {body: Partial<EngineLifecycleSettings>, answer: ModelsState},
    setRole: {body: {role: ModelRole, modelId: string | null}, answer: ModelsState},
    setDefault: {body: Record<string, never>, answer: ModelsState},
    removeModel: {body: undefined, answer: ModelsState},
    appDocuments: {body: undefined, answer: SavedDocuments},
    /** `saved: false`: an older write of the same page, which its newer write had already replaced. */
    putAppDocument: {body: unknown, answer: {saved: boolean, revision: number}},
    deleteAppDocument: {body: undefined, answer: {deleted: boolean}},
    acknowledgeDocumentProblems: {body: Record<string, never>, answer: {acknowledged: number}},
    promptItems: {body: undefined, answer: {items: SavedPromptItem[]}},
    promptVersions: {body: undefined, answer: {versions: SavedPromptVersion[], problems: string[]}},
    addPromptVersion: {body: NewPromptVersion, answer: {version: SavedPromptVersion}},
    deletePromptItem: {body: undefined, answer: {deleted: boolean}},
    restorePromptItem: {body: {item: SavedPromptItem, versions: SavedPromptVersion[]}, answer: {restored: boolean}},
    earlierOrigins: {body: undefined, answer: {origins: EarlierOrigin[]}},
    importEarlierOrigin: {body: EarlierStorage, answer: {moved: string}},
    /** Answers the database file itself (a download), not JSON. */
    exportAppData: {body: undefined, answer: unknown},
    /** The body is a backup file as exportAppData answered it, not JSON. */
    importAppData: {body: undefined, answer: {restored: boolean, keptAs: string}},
    datasets: {body: undefined, answer: {datasets: SavedDatasetInfo[], problems: string[]}},
    /** Query `offset` and `limit` (at most datasetPageLimit). */
    datasetRows: {body: undefined, answer: DatasetRowsPage},
    putDataset: {body: DatasetWrite, answer: {dataset: SavedDatasetInfo}},
    changeDataset: {body: DatasetChange, answer: {dataset: SavedDatasetInfo}},
    /** Query `revision`: the one the deletion is based on. */
    deleteDataset: {body: undefined, answer: {deleted: boolean}},
    /** Query `limit` (at most appDataLimits.maxHistoryPageSize) and `after` (the `next` of the page before). */
    runHistory: {body: undefined, answer: SavedRunPage},
    addRun: {body: SavedRun, answer: {saved: true}},
    deleteRun: {body: undefined, answer: {deleted: boolean}},
    clearHistory: {body: undefined, answer: {deleted: number}},
    scoringJobs: {body: undefined, answer: SavedJobList},
    createScoringJob: {body: {record: SavedJobRecord, table: unknown}, answer: {created: true}},
    scoringJob: {body: undefined, answer: SavedJob},
    updateScoringJob: {body: Partial<Pick<SavedJobRecord, "status" | "totalRows" | "error">>, answer: {record: SavedJobRecord}},
    addScoringResult: {body: SavedRowResult, answer: {stored: boolean}},
    deleteScoringErrors: {body: undefined, answer: {deleted: number}},
    deleteScoringJob: {body: undefined, answer: {deleted: boolean}},
    experiments: {body: undefined, answer: SavedJobList},
    createExperiment: {body: {record: SavedJobRecord, table: unknown}, answer: {created: true}},
    experiment: {body: undefined, answer: SavedJob},
    updateExperiment: {body: Partial<Pick<SavedJobRecord, "status" | "totalRows" | "error" | "baseline">>, answer: {record: SavedJobRecord}},
    addExperimentCell: {body: SavedRowResult, answer: {stored: boolean}},
    deleteExperiment: {body: undefined, answer: {deleted: boolean}},
    acknowledgeItemProblems: {body: {kind: SavedItemKind}, answer: {acknowledged: number}},
    cachedResponse: {body: {key: string}, answer: {value: SavedCachedResponse | null}},
    putCachedResponse: {body: {key: string, value: SavedCachedResponse}, answer: {kept: boolean}}
};

export type GatewayRouteMatch = RouteMatch<GatewayRouteName>;

const table = routeTable(gatewayRoutes);

/**
 * The route for `method` and `path` (below `/gateway/api`), with its parameters still URL-encoded; `undefined` when
 * none matches. Fixed segments win over parameters (`/models/downloads` is not the model named "downloads").
 */
export const matchGatewayRoute = table.match;

/** The path of a route with its parameters filled in (URL-encoded). */
export const gatewayPath = table.path;

/** Sends one call; the renderer's implementation adds the launch token and turns a non-2xx into an error. */
export type GatewaySend = RouteSend;

/** A typed client of every route, over whatever `send` the caller has. */
export function createGatewayClient(send: GatewaySend) {
    const call = table.caller<GatewayRouteTypes>(send);
    return {
        state: () => call("state"),
        startEngine: (body: GatewayRouteTypes["startEngine"]["body"] = {}) => call("startEngine", {body}),
        stopEngine: () => call("stopEngine", {body: {}}),
        /** The local engine's per-launch key, for scripts run on this machine. */
        engineKey: () => call("engineKey"),
        /**
         * The port the local engine listens on from now on (saved in the app's data folder); a running engine restarts
         * on it. 0: a free port at every start. A port another program holds is refused (409 `port_in_use`).
         */
        setEnginePort: (port: number) => call("setEnginePort", {body: {port}}),
        /**
         * The workspace key (`ck_...`) the gateway sends for the app's own model requests once the local engine holds
         * workspaces; kept in the key vault like a remote key and never sent back (the state shows its public start).
         */
        setLocalKey: (secret: string) => call("setLocalKey", {body: {secret}}),
        clearLocalKey: () => call("clearLocalKey"),
        /** The key goes to the gateway's vault and is never sent back. */
        addConnection: (body: GatewayRouteTypes["addConnection"]["body"]) => call("addConnection", {body}),
        deleteConnection: (id: string) => call("deleteConnection", {params: {id}}),
        activateConnection: (id: string) => call("activateConnection", {params: {id}, body: {}}),
        models: () => call("models"),
        gpu: (refresh = false) => call("gpu", {query: refresh ? "refresh" : undefined}),
        downloads: () => call("downloads"),
        download: (body: GatewayRouteTypes["download"]["body"]) => call("download", {body}),
        cancelDownload: (id: string) => call("cancelDownload", {params: {id}}),
        configure: (body: GatewayRouteTypes["configure"]["body"]) => call("configure", {body}),
        setRole: (role: ModelRole, modelId: string | null) => call("setRole", {body: {role, modelId}}),
        setDefault: (id: string) => call("setDefault", {params: {id}, body: {}}),
        removeModel: (id: string) => call("removeModel", {params: {id}}),
        // The app's saved data, kept by the gateway in its data folder (not in the page's per-origin storage).
        /** Every document (theme, presets, question sets ...) by key with its revision, read once as the page starts. */
        appDocuments: () => call("appDocuments"),
        /**
         * Replaces one document (its key: `appDataLimits.namePattern`), committed when it answers. `write.revision` is the
         * one it is based on (0 or absent: a new key); another window's write since is a 409 `revision_conflict`.
         */
        putAppDocument: (key: string, value: unknown, write: DocumentWriteQuery = {}) => call("putAppDocument", {params: {key}, body: value, query: documentWriteQuery(write)}),
        /** Deletes one document; with `write.revision`, only if no other window wrote it since (else a 409). */
        deleteAppDocument: (key: string, write: DocumentWriteQuery = {}) => call("deleteAppDocument", {params: {key}, query: documentWriteQuery(write)}),
        /** The problems `appDocuments` reports about documents kept aside stop being reported; the text kept stays. */
        acknowledgeDocumentProblems: () => call("acknowledgeDocumentProblems", {body: {}}),
        /** The saved prompts and question sets, the most recently changed first, without their versions. */
        promptItems: () => call("promptItems"),
        /** An item's versions, newest first. */
        promptVersions: (id: string) => call("promptVersions", {params: {id}}),
        /** Saves the next version of an item (a new item when none of that id exists); the gateway numbers it. */
        addPromptVersion: (id: string, body: NewPromptVersion) => call("addPromptVersion", {params: {id}, body}),
        deletePromptItem: (id: string) => call("deletePromptItem", {params: {id}}),
        /** Puts back a deleted item with its versions (Undo). */
        restorePromptItem: (item: SavedPromptItem, versions: SavedPromptVersion[]) => call("restorePromptItem", {params: {id: item.itemId}, body: {item, versions}}),
        /**
         * The origins whose browser storage an earlier version used and that are not moved in yet (newest first), each
         * with the address of a page, served for a minute, that reads it for this page when framed.
         */
        earlierOrigins: () => call("earlierOrigins"),
        /** Moves in what the reading page of `port` found; answers what was moved, in words. */
        importEarlierOrigin: (port: number, storage: EarlierStorage) => call("importEarlierOrigin", {params: {port: String(port)}, body: storage}),
        /** The saved datasets, newest first, without their rows; and sentences about any that could not be read. */
        datasets: () => call("datasets"),
        /** A page of a dataset's rows, from `offset` (0-based), at most `limit` (up to datasetPageLimit). */
        datasetRows: (id: string, offset: number, limit: number) => call("datasetRows", {params: {id}, query: `offset=${offset}&limit=${limit}`}),
        /** Writes a dataset whole, rows and all, in one transaction: a new one (`revision` 0), an import, an Undo. */
        putDataset: (id: string, body: DatasetWrite) => call("putDataset", {params: {id}, body}),
        /** Changes a dataset's fields and rows in one transaction, based on `revision` (else a 409). */
        changeDataset: (id: string, body: DatasetChange) => call("changeDataset", {params: {id}, body}),
        /** Deletes a dataset and its rows, based on `revision` (else a 409). */
        deleteDataset: (id: string, revision: number) => call("deleteDataset", {params: {id}, query: `revision=${revision}`}),
        /** A page of the saved runs, newest first: from the newest, or after the page whose `next` is `after`. */
        runHistory: (page: {limit?: number, after?: string | null} = {}) => call("runHistory", {query: runPageQuery(page)}),
        /** Saves a run, committed when it answers; nothing is ever dropped to make room. */
        addRun: (entry: SavedRun) => call("addRun", {body: entry}),
        deleteRun: (id: string) => call("deleteRun", {params: {id}}),
        clearHistory: () => call("clearHistory"),
        /** Saved scoring jobs, newest first, with their result counts. */
        scoringJobs: () => call("scoringJobs"),
        /** Saves a new job with its table, committed when it answers; no other job is touched. */
        createScoringJob: (record: SavedJobRecord, table: unknown) => call("createScoringJob", {body: {record, table}}),
        scoringJob: (id: string) => call("scoringJob", {params: {id}}),
        updateScoringJob: (id: string, patch: GatewayRouteTypes["updateScoringJob"]["body"]) => call("updateScoringJob", {params: {id}, body: patch}),
        /** Appends one row's result unless the row has one already (`stored: false`); on disk when it answers. */
        addScoringResult: (id: string, result: SavedRowResult) => call("addScoringResult", {params: {id}, body: result}),
        deleteScoringErrors: (id: string) => call("deleteScoringErrors", {params: {id}}),
        deleteScoringJob: (id: string) => call("deleteScoringJob", {params: {id}}),
        /** Saved experiments (stored as scoring jobs are: a record, the dataset as its table, one result per cell). */
        experiments: () => call("experiments"),
        /** Saves a new experiment with its dataset, committed when it answers; no other experiment is touched. */
        createExperiment: (record: SavedJobRecord, table: unknown) => call("createExperiment", {body: {record, table}}),
        experiment: (id: string) => call("experiment", {params: {id}}),
        updateExperiment: (id: string, patch: GatewayRouteTypes["updateExperiment"]["body"]) => call("updateExperiment", {params: {id}, body: patch}),
        /** Appends one cell's result unless that cell has one already (`stored: false`); on disk when it answers. */
        addExperimentCell: (id: string, result: SavedRowResult) => call("addExperimentCell", {params: {id}, body: result}),
        deleteExperiment: (id: string) => call("deleteExperiment", {params: {id}}),
        /** What of the old folders of runs, scoring jobs or experiments could not be read stops being reported (the files stay). */
        acknowledgeItemProblems: (kind: SavedItemKind) => call("acknowledgeItemProblems", {body: {kind}}),
        /** The response cache's answer to a request's key (client/scoring/responseCache.ts), null when it holds none. */
        cachedResponse: (key: string) => call("cachedResponse", {body: {key}}),
        /** Keeps an answer by its request's key; one too big to keep answers `kept: false`. */
        putCachedResponse: (key: string, value: SavedCachedResponse) => call("putCachedResponse", {body: {key, value}})
    };
}

export type GatewayClient = ReturnType<typeof createGatewayClient>;

/** A history page's query string (`limit=N&after=C`), undefined when it names nothing. */
function runPageQuery(page: {limit?: number, after?: string | null}): string | undefined {
    const query = new URLSearchParams();
    if (page.limit !== undefined) query.set("limit", String(page.limit));
    if (page.after != null) query.set("after", page.after);
    return query.size === 0 ? undefined : query.toString();
}

/** A document write's query string (`revision=N&writer=W&sequence=S`), undefined when it names nothing. */
export function documentWriteQuery(write: DocumentWriteQuery): string | undefined {
    const query = new URLSearchParams();
    for (const name of ["revision", "writer", "sequence"] as const) if (write[name] !== undefined) query.set(name, String(write[name]));
    const text = query.toString();
    return text === "" ? undefined : text;
}
