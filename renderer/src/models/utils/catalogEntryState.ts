import type {CatalogEntry, DownloadJob} from "../types.ts";

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
