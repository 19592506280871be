import type {DownloadJob} from "../types.ts";

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
