// The model library as the Models screen reads it (polled while something runs), and what it derives for display.
import {useQuery, useMutation, useQueryClient} from "@tanstack/react-query";
import {formatBytes, formatDuration} from "../../../../base/common/format.ts";
import {gatewayStateKey} from "../../gateway/gatewayState.ts";
import {gatewayApi} from "../../gateway/gatewayApi.ts";
import type {ModelsState, LibraryModel, CatalogEntry, DownloadJob} from "./types.ts";

export const modelsStateKey = ["models-state"] as const;

/** The library, catalog, downloads and settings: polled quickly while a download runs or the engine starts. */
export function useModelsState() {
    return useQuery<ModelsState>({
        queryKey: modelsStateKey,
        queryFn: gatewayApi.models,
        refetchInterval: (query) => query.state.data != null && isBusy(query.state.data) ? 500 : 5000
    });
}

/** A models call that changes something: the models state and the engine state are read again afterwards, success or not. */
export function useModelsMutation<A>(call: (arg: A) => Promise<unknown>) {
    const client = useQueryClient();
    return useMutation({
        mutationFn: call,
        onSettled: () => Promise.all([
            client.invalidateQueries({queryKey: modelsStateKey}),
            client.invalidateQueries({queryKey: gatewayStateKey})
        ])
    });
}

const gpuKey = ["models-gpu"] as const;

/**
 * The GPU report: detection takes seconds (the gateway runs it in a child process and keeps the answer), so it
 * is read once; `recheck` asks the gateway to detect again (after installing a driver, say).
 */
export function useGpuReport() {
    const client = useQueryClient();
    const query = useQuery({queryKey: gpuKey, queryFn: () => gatewayApi.gpu().then((answer) => answer.gpu), staleTime: Infinity, retry: false});
    const recheck = async () => {
        const {gpu} = await gatewayApi.gpu(true);
        client.setQueryData(gpuKey, gpu);
    };
    return {...query, recheck};
}

/** Something is moving that the screen should follow closely: a download, or the engine coming up. */
export function isBusy(state: ModelsState): boolean {
    return state.downloads.some((job) => job.status === "downloading") || state.active.status === "starting";
}

/** The library table's rows: every GGUF of the folder, then the built-in model when this install has it. */
export function libraryRows(state: Pick<ModelsState, "models" | "builtIn">): LibraryModel[] {
    return [...state.models, ...state.builtIn != null ? [state.builtIn] : []];
}

/** The library card's count badge: the rows listed (the built-in model is one), and on hover what they are. */
export function libraryCount(state: Pick<ModelsState, "models" | "builtIn">): {label: string, title: string} {
    const count = libraryRows(state).length;
    const files = `${state.models.length} GGUF file${state.models.length === 1 ? "" : "s"} in the library folder`;
    return {
        label: `${count} model${count === 1 ? "" : "s"}`,
        title: state.builtIn != null ? `Models listed below: ${files} and the built-in ${state.builtIn.id}, which ships with the app` : `Models listed below: ${files}`
    };
}

/** The engine has this model loaded (or is loading it): it cannot be deleted until the engine stops. */
export function isModelInUse(model: LibraryModel, active: ModelsState["active"]): boolean {
    return active.modelId === model.id && (active.status === "running" || active.status === "starting");
}

export {fileNameOf} from "../../../../base/common/fileNameOf.ts";

export type CatalogEntryState = {kind: "installed", modelId: string} | {kind: "downloading", job: DownloadJob} | {kind: "available"};

/** The library file a catalog entry is saved as: the last segment of its `hf:` URI (as the gateway names it). */
export function catalogFileName(entry: CatalogEntry): string {
    return entry.uri.split("/").at(-1) ?? "";
}

/** Whether a recommended model is already in the library, being downloaded, or there to download. */
export function catalogEntryState(entry: CatalogEntry, downloads: DownloadJob[]): CatalogEntryState {
    if (entry.installedId != null) return {kind: "installed", modelId: entry.installedId};
    const job = downloads.find((candidate) => candidate.status === "downloading" && candidate.fileName === catalogFileName(entry));
    return job != null ? {kind: "downloading", job} : {kind: "available"};
}

/**
 * The downloads worth showing: every running one, and the newest `finishedLimit` finished ones unless all are
 * asked for (the gateway keeps twenty finished jobs; a long list would push the catalog off the screen).
 */
export function visibleDownloads(downloads: DownloadJob[], showAll: boolean, finishedLimit = 4): {shown: DownloadJob[], hidden: number} {
    if (showAll) return {shown: downloads, hidden: 0};
    let finished = 0;
    const shown = downloads.filter((job) => job.status === "downloading" || finished++ < finishedLimit);
    return {shown, hidden: downloads.length - shown.length};
}

export type DownloadProgressView = {
    /** 0..1 when the size is known; absent when the server did not say (the bar is then indeterminate). */
    fraction?: number,
    /** "452 KiB of 903 KiB", or just the bytes received when the size is unknown. */
    bytes: string,
    /** "1.20 MiB/s"; absent when nothing is flowing. */
    speed?: string,
    /** "3 s left"; absent when unknown or finished. */
    eta?: string,
    /** The vision projector's file name while it is the file downloading (after its model, in the same job). */
    projector?: string
};

/** A vision model's job fetches its projector once the model is complete: the figures are then the projector's. */
function projectorInFlight(job: DownloadJob): DownloadJob["projector"] {
    const modelComplete = job.totalBytes != null && job.receivedBytes >= job.totalBytes;
    return job.status === "downloading" && job.projector != null && !job.projector.done && modelComplete ? job.projector : undefined;
}

/** The figures one download row shows: of the model, or of its projector once that one is downloading. */
export function downloadProgress(job: DownloadJob): DownloadProgressView {
    const projector = projectorInFlight(job);
    const received = projector?.receivedBytes ?? job.receivedBytes;
    const total = projector != null ? projector.totalBytes : job.totalBytes;
    const fraction = total != null && total > 0 ? Math.min(1, received / total) : job.status === "done" ? 1 : undefined;
    const downloading = job.status === "downloading";
    return {
        ...(projector != null ? {projector: projector.fileName} : {}),
        fraction,
        bytes: total != null ? `${formatBytes(received)} of ${formatBytes(total)}` : formatBytes(received),
        speed: downloading && job.bytesPerSecond > 0 ? `${formatBytes(job.bytesPerSecond)}/s` : undefined,
        eta: downloading && job.etaSeconds != null ? `${formatDuration(job.etaSeconds)} left` : undefined
    };
}

/**
 * A short headline for a failed download's error code (ModelDownloads / DownloadError codes); the gateway's
 * message below it says what exactly went wrong and what to do.
 */
export function downloadErrorTitle(code: string): string {
    switch (code) {
        case "bad_url": return "Not a model link";
        case "invalid_model_source": return "Not a model link";
        case "http_error": return "The server refused the download";
        case "not_gguf": return "Not a GGUF model file";
        case "checksum_mismatch": return "Checksum does not match";
        case "disk_full": return "The disk is full";
        case "network": return "Network problem";
        case "unreachable": return "Server not reachable";
        case "file_error": return "Could not save the file";
        case "download_in_progress": return "Already downloading";
        case "cancelled": return "Cancelled";
        default: return "Download failed";
    }
}
