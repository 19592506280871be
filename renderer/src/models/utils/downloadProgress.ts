import type {DownloadJob} from "../types.ts";
import {formatBytes, formatDuration} from "../../../../base/common/format.ts";

export type DownloadProgressView = {
    /** 0..1 when the size is known; absent when the server did not say (the bar is then indeterminate). */
    fraction?: number,
    /** "452 KiB of 903 KiB", or just the bytes received when the size is unknown. */
    bytes: string,
    /** "1.20 MiB/s"; absent when nothing is flowing. */
    speed?: string,
    /** "3 s left"; absent when unknown or finished. */
    eta?: string
};

/** The figures one download row shows. */
export function downloadProgress(job: DownloadJob): DownloadProgressView {
    const total = job.totalBytes;
    const fraction = total != null && total > 0 ? Math.min(1, job.receivedBytes / total) : job.status === "done" ? 1 : undefined;
    const downloading = job.status === "downloading";
    return {
        fraction,
        bytes: total != null ? `${formatBytes(job.receivedBytes)} of ${formatBytes(total)}` : formatBytes(job.receivedBytes),
        speed: downloading && job.bytesPerSecond > 0 ? `${formatBytes(job.bytesPerSecond)}/s` : undefined,
        eta: downloading && job.etaSeconds != null ? `${formatDuration(job.etaSeconds)} left` : undefined
    };
}
