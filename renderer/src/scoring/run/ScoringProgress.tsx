import type {JobProgress} from "../../../../client/scoring/index.ts";
import {formatDuration} from "../../../../base/common/format.ts";

/**
 * The job's progress bar with rows/s, ETA, errors and retries, and the last error the server sent.
 * `interrupted`: a saved job whose page closed while it ran (its progress is stopped; the badge says why).
 */
export function ScoringProgress({progress, interrupted = false}: {progress: JobProgress, interrupted?: boolean}) {
    const total = progress.totalRows;
    const fraction = total === null || total === 0 ? 0 : progress.done / total;
    const percent = Math.floor(fraction * 100);
    // While running: the client's recent rate; once stopped, the run's average.
    const rate = progress.rowsPerSecond ?? (progress.scoredThisRun > 0 && progress.elapsedMs > 0 ? progress.scoredThisRun / (progress.elapsedMs / 1000) : null);
    return (
        <div className="scoring-progress" data-testid="scoring-progress" data-status={progress.status}>
            <div className="progress-track" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
                <div className={`progress-fill status-${progress.status}`} style={{width: `${fraction * 100}%`}} />
                {progress.failed > 0 && total !== null && total > 0 && <div className="progress-errors" style={{width: `${(progress.failed / total) * 100}%`}} />}
            </div>
            <div className="progress-figures">
                <span className={`status-badge status-${progress.status === "completed" ? "done" : progress.status === "failed" ? "error" : progress.status === "running" ? "running" : "stopped"}`}
                    data-testid="scoring-status">{interrupted ? "interrupted" : progress.status}</span>
                <span className="strong mono" data-testid="scoring-percent">{percent}%</span>
                <span className="mono small" data-testid="scoring-rows">{progress.done.toLocaleString("en-US")} / {total === null ? "?" : total.toLocaleString("en-US")} rows</span>
                <span className="stat"><span className="stat-label">rows/s</span><span className="stat-value mono" data-testid="scoring-rate">{rate === null ? "–" : rate.toFixed(1)}</span></span>
                <span className="stat"><span className="stat-label">ETA</span><span className="stat-value mono" data-testid="scoring-eta">{progress.status === "running" ? formatDuration(progress.etaSeconds) : "–"}</span></span>
                <span className="stat"><span className="stat-label">elapsed</span><span className="stat-value mono">{formatDuration(progress.elapsedMs / 1000)}</span></span>
                <span className={`stat${progress.failed > 0 ? " stat-danger" : ""}`}><span className="stat-label">errors</span><span className="stat-value mono" data-testid="scoring-errors">{progress.failed}</span></span>
                <span className="stat"><span className="stat-label">retries</span><span className="stat-value mono">{progress.retries}</span></span>
                <span className="stat"><span className="stat-label">in flight</span><span className="stat-value mono">{progress.inFlight}</span></span>
            </div>
            {progress.fatalError && <div className="field-error" role="alert" data-testid="scoring-fatal">{progress.fatalError}</div>}
            {!progress.fatalError && progress.lastError && (
                <div className="field-warning" data-testid="scoring-last-error">Last error: {progress.lastError.status ?? "–"} {progress.lastError.code}: {progress.lastError.message}</div>
            )}
        </div>
    );
}
