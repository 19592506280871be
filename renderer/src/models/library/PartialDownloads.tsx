import type {DownloadJob, PartialDownload} from "../types.ts";
import {formatBytes} from "../../../../base/common/format.ts";

/**
 * `.part` files left by interrupted downloads (not the ones downloading now): downloading the same URL again
 * resumes where it stopped.
 */
export function PartialDownloads({partial, downloads, busy, onResume}: {
    partial: PartialDownload[], downloads: DownloadJob[], busy: boolean, onResume: (part: PartialDownload & {url: string}) => void
}) {
    const running = new Set(downloads.filter((job) => job.status === "downloading").map((job) => job.fileName));
    const left = partial.filter((part) => !running.has(part.fileName));
    if (left.length === 0) return null;
    return (
        <div className="models-partial" data-testid="partial-downloads">
            <span className="card-label">Unfinished downloads</span>
            <ul>
                {left.map((part) => (
                    <li key={part.fileName} data-testid={`partial-${part.fileName}`}>
                        <span className="mono">{part.fileName}</span>
                        <span className="muted small">{formatBytes(part.receivedBytes)} received</span>
                        {part.url != null
                            ? <button type="button" className="btn btn-sm push-right" disabled={busy} onClick={() => onResume({...part, url: part.url!})}>Resume</button>
                            : <span className="muted small push-right">source unknown: download it again to finish</span>}
                    </li>
                ))}
            </ul>
        </div>
    );
}
