// The open experiment's progress and its controls: pause, resume, cancel while it runs; Resume for one that stopped
// (a reload, a cancel, a failure) goes on with the cells that have no result.
import {formatCount} from "../../../../client/experiments/metricDefinitions.ts";
import {Icon} from "../../ui/controls.tsx";
import {cancelExperiment, continueExperiment, pauseExperiment, resumeExperiment} from "./experimentRun.ts";
import {useExperimentStore, type OpenExperiment} from "./experimentStore.ts";
import {experimentCells} from "../../../../client/experiments/repeats.ts";

function formatDuration(seconds: number | null): string {
    if (seconds === null || !Number.isFinite(seconds)) return "–";
    if (seconds < 60) return `${Math.round(seconds)} s`;
    const minutes = Math.floor(seconds / 60);
    return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function RunCard({open}: {open: OpenExperiment}) {
    const progress = useExperimentStore((state) => state.progress);
    const busy = useExperimentStore((state) => state.busy);
    const saveNote = useExperimentStore((state) => state.saveNote);
    useExperimentStore((state) => state.countsVersion);
    const total = experimentCells(open.spec, open.rowIndexes.length);
    const done = open.counts.reduce((sum, count) => sum + count.done, 0);
    const errors = open.counts.reduce((sum, count) => sum + count.errors, 0);
    const cached = open.counts.reduce((sum, count) => sum + count.cached, 0);
    const status = progress?.status ?? (done >= total ? "completed" : open.interrupted ? "stopped" : "running");
    const running = busy && progress !== null && (progress.status === "running" || progress.status === "paused");
    const percent = total === 0 ? 0 : Math.round(done / total * 1000) / 10;
    return (
        <section className="card exp-run" data-testid="exp-run-card" data-status={status}>
            <div className="card-title-row">
                <h3>{open.spec.name}</h3>
                <span className={`badge status-${status}`} data-testid="exp-status">{status}</span>
                <div className="row-gap push-right">
                    {running && progress.status === "running" && <button type="button" className="btn btn-sm" data-testid="exp-pause" onClick={pauseExperiment}>Pause</button>}
                    {running && progress.status === "paused" && <button type="button" className="btn btn-sm" data-testid="exp-resume" onClick={resumeExperiment}><Icon name="play" /> Resume</button>}
                    {running && <button type="button" className="btn btn-sm btn-danger" data-testid="exp-cancel" onClick={cancelExperiment}><Icon name="stop" /> Cancel</button>}
                    {!busy && done < total && (
                        <button type="button" className="btn btn-sm btn-primary" data-testid="exp-continue" onClick={() => void continueExperiment()}
                            title="Sends only the cells without a result: none is sent twice"><Icon name="play" /> Resume</button>
                    )}
                </div>
            </div>
            <div className="progress-track" role="progressbar" aria-label="Cells done" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
                {/* Scaled, not resized: a new width would lay out and repaint the page at every update. */}
                <div className={`progress-fill exp-progress-fill status-${status}`} style={{transform: `scaleX(${percent / 100})`}} />
            </div>
            <div className="progress-figures">
                <span className="stat"><span className="stat-label">cells</span><span className="stat-value mono" data-testid="exp-done">{formatCount(done)} / {formatCount(total)}</span></span>
                {open.spec.variants.map((variant, index) => (
                    <span key={variant.name} className="stat" title={`Cells of ${variant.name} with a result (errors included)`}>
                        <span className="stat-label mono">{variant.name}</span>
                        <span className="stat-value mono">{formatCount(open.counts[index]?.done)}</span>
                    </span>
                ))}
                <span className={`stat${errors > 0 ? " stat-danger" : ""}`}><span className="stat-label">errors</span><span className="stat-value mono" data-testid="exp-errors">{formatCount(errors)}</span></span>
                <span className="stat" title="Cells answered from the response cache: the same request was answered before, so nothing was sent (Setup: Reuse earlier answers)">
                    <span className="stat-label">from the cache</span><span className="stat-value mono" data-testid="exp-cached">{formatCount(cached)}</span>
                </span>
                {progress && <>
                    <span className="stat"><span className="stat-label">cells/s</span><span className="stat-value mono">{progress.rowsPerSecond === null ? "–" : progress.rowsPerSecond.toFixed(1)}</span></span>
                    <span className="stat"><span className="stat-label">ETA</span><span className="stat-value mono">{progress.status === "running" ? formatDuration(progress.etaSeconds) : "–"}</span></span>
                    {progress.rateLimited && <span className="badge badge-warn">rate limited: waiting as the server asks</span>}
                </>}
            </div>
            {progress?.fatalError && <div className="field-error" role="alert" data-testid="exp-fatal">{progress.fatalError}</div>}
            {progress?.lastError && !progress.fatalError && <div className="field-warning small">Last error: {progress.lastError.code}: {progress.lastError.message}</div>}
            {open.interrupted && !busy && done < total && <div className="field-warning small" data-testid="exp-interrupted">This experiment stopped before its end: Resume sends the {formatCount(total - done)} cells without a result.</div>}
            {saveNote && <div className="field-warning" role="alert">{saveNote}</div>}
        </section>
    );
}
