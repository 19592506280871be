import type {DownloadJob} from "../types.ts";
import {downloadErrorTitle} from "../utils/downloadErrorTitle.ts";
import {downloadProgress} from "../utils/downloadProgress.ts";

const statusClass: Record<DownloadJob["status"], string> = {
    downloading: "status-running", done: "status-done", failed: "status-error", cancelled: "status-stopped"
};

/** One download: progress with speed and time left while it runs, then how it ended. */
export function DownloadRow({job, onCancel, cancelling}: {job: DownloadJob, onCancel: (id: string) => void, cancelling: boolean}) {
    const progress = downloadProgress(job);
    const running = job.status === "downloading";
    return (
        <li className={`models-download status-${job.status}`} data-testid={`download-${job.fileName}`} data-status={job.status}>
            <div className="models-download-head">
                <span className="mono strong break">{job.fileName}</span>
                <span className={`status-badge ${statusClass[job.status]}`} data-testid="download-status">{job.status}</span>
                {running && (
                    <button type="button" className="btn btn-sm push-right" disabled={cancelling} onClick={() => onCancel(job.id)} data-testid="download-cancel">
                        {cancelling ? "Cancelling…" : "Cancel"}
                    </button>
                )}
            </div>
            <div className="mono muted small break" title="source">{job.source}</div>
            {job.status !== "failed" && job.status !== "cancelled" && (
                <div className={`models-bar${progress.fraction == null ? " indeterminate" : ""}`} role="progressbar" aria-label={`Download of ${job.fileName}`}
                    aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.fraction != null ? Math.round(progress.fraction * 100) : undefined}
                    data-testid="download-bar">
                    <div className={`models-bar-fill ${statusClass[job.status]}`} style={{width: `${Math.round((progress.fraction ?? 0.3) * 100)}%`}} />
                </div>
            )}
            {(job.receivedBytes > 0 || job.status === "downloading" || job.status === "done") && <div className="models-download-figures small" data-testid="download-figures">
                <span className="mono">{progress.bytes}</span>
                {progress.fraction != null && running && <span className="mono">{Math.floor(progress.fraction * 100)}%</span>}
                {progress.speed && <span className="mono" data-testid="download-speed">{progress.speed}</span>}
                {progress.eta && <span className="mono" data-testid="download-eta">{progress.eta}</span>}
                {job.attempt > 1 && <span className="muted">attempt {job.attempt}</span>}
            </div>}
            {running && job.retrying && (
                <div className="field-warning" data-testid="download-retrying">Connection trouble, retrying (attempt {job.attempt}): {job.retrying}</div>
            )}
            {job.status === "done" && (
                <div className="field-ok" data-testid="download-done">Added to the library as <span className="mono">{job.modelId}</span></div>
            )}
            {job.status === "failed" && job.error && (
                <div className="models-download-error" role="alert" data-testid="download-error">
                    <div className="row-gap">
                        <span className="strong">{downloadErrorTitle(job.error.code)}</span>
                        <span className="badge badge-danger mono" data-testid="download-error-code">{job.error.code}</span>
                    </div>
                    <div data-testid="download-error-message">{job.error.message}</div>
                </div>
            )}
        </li>
    );
}
