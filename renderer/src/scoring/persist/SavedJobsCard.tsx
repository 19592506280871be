import {useEffect} from "react";
import {useScoringStore} from "../state/useScoringStore.ts";
import {deleteSavedJob, openSavedJob, refreshSavedJobs} from "../run/scoringJob.ts";
import {maxSavedJobs, type SavedJobSummary} from "./savedJobs.ts";

const time = new Intl.DateTimeFormat(undefined, {month: "short", day: "numeric", hour: "2-digit", minute: "2-digit"});

const badgeClass = (status: string) => status === "completed" ? "done" : status === "failed" ? "error" : status === "running" ? "running" : "stopped";

/**
 * The scoring jobs saved in this browser (newest first), so a reload or a closed window loses no work: open
 * one to see its results or continue it, or delete it. Hidden while there are none.
 */
export function SavedJobsCard() {
    const saved = useScoringStore((state) => state.savedJobs);
    const job = useScoringStore((state) => state.job);
    const table = useScoringStore((state) => state.table);
    const progress = useScoringStore((state) => state.progress);
    useEffect(() => {
        void refreshSavedJobs();
    }, []);
    if (saved.length === 0) return null;
    const active = progress?.status === "running" || progress?.status === "paused";
    // The job on screen shows its live figures; the others, what is stored.
    const view = (entry: SavedJobSummary) => {
        if (entry.jobId !== job?.id) return {done: entry.done, total: entry.totalRows, status: entry.interrupted ? "interrupted" : entry.status};
        // This page's job: stored as running while it starts, interrupted only when restored so.
        if (progress?.jobId !== entry.jobId) return {done: entry.done, total: entry.totalRows, status: job.interrupted ? "interrupted" : entry.status};
        return {done: progress.done, total: progress.totalRows, status: !active && job.interrupted ? "interrupted" : progress.status};
    };
    return (
        <section className="card saved-jobs-card" data-testid="saved-jobs">
            <div className="card-title-row">
                <h3>Saved jobs</h3>
                <span className="muted small">kept in this browser as they are scored, the newest {maxSavedJobs}</span>
            </div>
            <table className="table compact">
                <tbody>
                    {saved.map((entry) => {
                        const shown = view(entry);
                        const open = entry.jobId === job?.id && job.table === table;
                        const running = entry.jobId === job?.id && active;
                        return (
                            <tr key={entry.jobId} data-testid="saved-job" data-job-id={entry.jobId} className={open ? "is-open" : undefined}>
                                <td className="strong" data-testid="saved-job-name">{entry.fileName}{entry.sheet ? ` · ${entry.sheet}` : ""}</td>
                                <td className="mono small" data-testid="saved-job-rows">{shown.done.toLocaleString("en-US")} / {shown.total === null ? "?" : shown.total.toLocaleString("en-US")} rows</td>
                                <td><span className={`status-badge status-${badgeClass(shown.status)}`} data-testid="saved-job-status">{shown.status}</span></td>
                                <td className="muted small">{time.format(entry.createdAt)}</td>
                                <td><div className="saved-job-actions">
                                    {!entry.hasTable && <span className="field-warning inline">table not saved</span>}
                                    {open ? <span className="muted small">open</span> : (
                                        <button type="button" className="btn btn-sm" disabled={active || !entry.hasTable} data-testid="saved-job-open"
                                            onClick={() => void openSavedJob(entry.jobId)}>Open</button>
                                    )}
                                    <button type="button" className="btn btn-sm" disabled={running} data-testid="saved-job-delete" onClick={() => {
                                        if (confirm(`Delete the saved job on ${entry.fileName} (${shown.done.toLocaleString("en-US")} scored rows)? Export its results first if you need them.`)) void deleteSavedJob(entry.jobId);
                                    }}>Delete</button>
                                </div></td>
                            </tr>
                        );
                    })}
                </tbody>
            </table>
        </section>
    );
}
