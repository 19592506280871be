// Running a scoring job: start, pause, resume, cancel and continue, its progress, and the jobs saved in the browser.
import {useMemo, useEffect, useState} from "react";
import {formatDuration} from "../../../../base/common/format.ts";
import type {JobProgress} from "../../../../client/scoring/index.ts";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {useNavStore} from "../../ui/appState.ts";
import {Icon} from "../../ui/controls.tsx";
import {toQuestionSet} from "../questionSet/draft.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {rowInput} from "../questionSet/requests.ts";
import {validateDraft} from "../questionSet/validation.ts";
import {cancelScoring, continueScoring, pauseScoring, resumeScoring, startScoring, deleteSavedJob, openSavedJob, refreshSavedJobs} from "./scoringJob.ts";
import {failureNote, jobFigures} from "./jobFigures.ts";
import {jobName, jobTime, renameJob, useJobNames} from "./jobNames.ts";
import "./scoringJobs.css";
import {useScoringStore, type SavedJobSummary} from "./scoringStore.ts";

/** The question set of the Decision studio over every row, on the active connection: start, pause, cancel, progress. */
export function ScoringRunCard() {
    const draft = useQuestionSetStore((state) => state.draft);
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    const concurrency = useScoringStore((state) => state.concurrency);
    const progress = useScoringStore((state) => state.progress);
    const job = useScoringStore((state) => state.job);
    const jobError = useScoringStore((state) => state.jobError);
    const saveNote = useScoringStore((state) => state.saveNote);
    const set = useScoringStore((state) => state.set);
    const go = useNavStore((state) => state.go);
    const {data: gateway} = useGatewayState();
    const problems = useMemo(() => validateDraft(draft), [draft]);
    const mappingError = useMemo(() => {
        if (table === null || table.rows.length === 0) return "no rows to score";
        try {
            rowInput(table, table.rows[0], mapping);
            return null;
        } catch (error) {
            return (error as Error).message;
        }
    }, [table, mapping]);
    if (table === null) return null;
    // Progress belongs to the table its job scored; another file starts without it.
    const current = job !== null && job.table === table;
    const status = progress?.status;
    const active = status === "running" || status === "paused";
    const blocked = problems.length > 0 ? `question set: ${problems[0].message}` : mappingError;
    const unfinished = current && !active && progress !== null && progress.done < (progress.totalRows ?? Infinity);
    const canRetryErrors = current && !active && progress !== null && progress.failed > 0;
    return (
        <section className="card scoring-run-card" data-testid="scoring-run-card">
            <div className="card-title-row">
                <h3>3 · Score</h3>
                <span className="muted small">
                    <button type="button" className="link-btn" onClick={() => go("decisions")}>{draft.name || "Untitled question set"}</button>
                    {" · "}{draft.questions.length} question{draft.questions.length === 1 ? "" : "s"} · {draft.format === "decisions" ? "/v1/decisions" : "/v1/systemone"}
                    {draft.calibration ? " · calibrated" : ""} · on {activeConnection(gateway).name}
                </span>
            </div>
            <div className="row-gap scoring-controls">
                <label className="row-gap small">Concurrency
                    <input className="input input-sm concurrency" type="number" min={1} max={32} value={concurrency} disabled={active} data-testid="scoring-concurrency"
                        onChange={(event) => set({concurrency: Math.max(1, Math.min(32, Math.floor(Number(event.target.value)) || 1))})} />
                </label>
                {!active && <button type="button" className="btn btn-primary" disabled={blocked !== null} data-testid="scoring-start"
                    onClick={() => void startScoring(toQuestionSet(draft))}><Icon name="play" /> Score {table.rows.length.toLocaleString("en-US")} rows</button>}
                {status === "running" && <button type="button" className="btn" data-testid="scoring-pause" onClick={pauseScoring}>Pause</button>}
                {status === "paused" && <button type="button" className="btn btn-primary" data-testid="scoring-resume" onClick={resumeScoring}>Resume</button>}
                {active && <button type="button" className="btn btn-danger" data-testid="scoring-cancel" onClick={cancelScoring}><Icon name="stop" /> Cancel</button>}
                {unfinished && <button type="button" className="btn" data-testid="scoring-continue" onClick={() => void continueScoring(false)}>Continue where it stopped</button>}
                {canRetryErrors && <button type="button" className="btn" data-testid="scoring-retry-errors" onClick={() => void continueScoring(true)}>Score the failed rows again</button>}
            </div>
            {blocked && !active && <div className="field-error" role="alert" data-testid="scoring-blocked">{blocked}</div>}
            {jobError && <div className="field-error" role="alert">{jobError}</div>}
            {saveNote && (current || active) && <div className="field-warning scoring-save-note" data-testid="scoring-save-note">{saveNote}</div>}
            {active && !current && <div className="field-warning">A job on {job?.table.fileName} is still {status}.</div>}
            {progress && (current || active) && <ScoringProgress progress={progress} earlierMs={job?.id === progress.jobId ? job.earlierMs ?? 0 : 0}
                interrupted={current && !active && job.interrupted === true} />}
        </section>
    );
}

/**
 * The job's progress bar with rows/s, ETA, errors and retries, and the last error the server sent.
 * `interrupted`: a saved job whose page closed while it ran (its progress is stopped; the badge says why).
 * `earlierMs`: the time its earlier runs took (before a reload, a cancel), so elapsed and rows/s cover the whole job.
 */
export function ScoringProgress({progress, earlierMs = 0, interrupted = false}: {progress: JobProgress, earlierMs?: number, interrupted?: boolean}) {
    const total = progress.totalRows;
    const fraction = total === null || total === 0 ? 0 : progress.done / total;
    const percent = Math.floor(fraction * 100);
    // While running: the client's recent rate; once stopped, the whole job's average (all its runs).
    const {elapsedMs, rowsPerSecond: rate} = jobFigures(progress, earlierMs);
    const failedWhy = failureNote(progress);
    return (
        <div className="scoring-progress" data-testid="scoring-progress" data-status={progress.status}>
            <div className="progress-track" role="progressbar" aria-label="Rows scored" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
                <div className={`progress-fill status-${progress.status}`} style={{width: `${fraction * 100}%`}} />
                {progress.failed > 0 && total !== null && total > 0 && <div className="progress-errors" style={{width: `${(progress.failed / total) * 100}%`}} />}
            </div>
            <div className="progress-figures">
                <span className={`status-badge status-${progress.status === "completed" ? "done" : progress.status === "failed" ? "error" : progress.status === "running" ? "running" : "stopped"}`}
                    data-testid="scoring-status">{interrupted ? "interrupted" : progress.status}</span>
                {failedWhy !== null && <span className="field-error inline scoring-failed-why" data-testid="scoring-failed-why" title={failedWhy}>stopped: {failedWhy}</span>}
                <span className="strong mono" data-testid="scoring-percent">{percent}%</span>
                <span className="mono small" data-testid="scoring-rows">{progress.done.toLocaleString("en-US")} / {total === null ? "?" : total.toLocaleString("en-US")} rows</span>
                <span className="stat"><span className="stat-label">rows/s</span><span className="stat-value mono" data-testid="scoring-rate">{rate === null ? "–" : rate.toFixed(1)}</span></span>
                <span className="stat"><span className="stat-label">ETA</span><span className="stat-value mono" data-testid="scoring-eta">{progress.status === "running" ? formatDuration(progress.etaSeconds) : "–"}</span></span>
                {progress.rateLimited && (
                    <span className="badge badge-warn" data-testid="scoring-rate-limited" title={rateLimitedHint}>
                        rate-limited{progress.etaSeconds === null ? ": measuring the pace" : ""}
                    </span>
                )}
                <span className="stat" title="Time spent scoring, all the job's runs together (pauses and the time between runs left out)">
                    <span className="stat-label">elapsed</span><span className="stat-value mono" data-testid="scoring-elapsed">{formatDuration(elapsedMs / 1000)}</span>
                </span>
                <span className={`stat${progress.failed > 0 ? " stat-danger" : ""}`}><span className="stat-label">errors</span><span className="stat-value mono" data-testid="scoring-errors">{progress.failed}</span></span>
                <span className="stat"><span className="stat-label">retries</span><span className="stat-value mono">{progress.retries}</span></span>
                <span className="stat"><span className="stat-label">in flight</span><span className="stat-value mono">{progress.inFlight}</span></span>
            </div>
            {failedWhy !== null && <div className="field-error" role="alert" data-testid="scoring-fatal">{failedWhy}</div>}
            {!progress.fatalError && progress.lastError && (
                <div className="field-warning" data-testid="scoring-last-error">Last error: {progress.lastError.status ?? "–"} {progress.lastError.code}: {progress.lastError.message}</div>
            )}
        </div>
    );
}

const rateLimitedHint = "The server refuses requests past its rate limit (429 with Retry-After) and the job waits as asked. " +
    "The ETA uses the pace the limit lets rows through, measured from the refused rows that went through, not the burst before the first refusal.";

const badgeClass = (status: string) => status === "completed" ? "done" : status === "failed" ? "error" : status === "running" ? "running" : "stopped";

/**
 * A saved job's name, renamed in place: Rename (or a double click) makes it a text field; Enter or leaving it keeps
 * the new name, Escape keeps the old one, a blank name gives the job its default back.
 */
function JobNameCell({entry}: {entry: SavedJobSummary}) {
    const names = useJobNames((state) => state.names);
    const [editing, setEditing] = useState(false);
    const name = jobName(entry, names);
    const source = `${entry.fileName}${entry.sheet ? ` · ${entry.sheet}` : ""}`;
    return (
        <td className="saved-job-title">
            {editing ? (
                <input className="input input-sm" defaultValue={name} autoFocus aria-label={`New name for ${name}`} data-testid="saved-job-rename-input"
                    onFocus={(event) => event.target.select()}
                    onKeyDown={(event) => {
                        if (event.key === "Enter") event.currentTarget.blur();
                        if (event.key === "Escape") {
                            event.currentTarget.value = name;
                            event.currentTarget.blur();
                        }
                    }}
                    onBlur={(event) => {
                        renameJob(entry, event.target.value);
                        setEditing(false);
                    }} />
            ) : (
                <div className="saved-job-name-row">
                    <span className="strong" data-testid="saved-job-name" title={name} onDoubleClick={() => setEditing(true)}>{name}</span>
                    <button type="button" className="link-btn small" data-testid="saved-job-rename" aria-label={`Rename ${name}`} onClick={() => setEditing(true)}>Rename</button>
                </div>
            )}
            <div className="muted small">
                <span data-testid="saved-job-file">{source}</span> · <span data-testid="saved-job-set" title="The question set the job scored with">{entry.questionSetName ?? "untitled question set"}</span>
                {" · "}<span data-testid="saved-job-time" title="When the job started">{jobTime.format(entry.createdAt)}</span>
            </div>
        </td>
    );
}

/**
 * The scoring jobs saved in the app's data folder (newest first), so a reload, a closed window or the next launch
 * loses no work: each by its name (given here, else file · question set · start time), to open (its results, or to
 * continue it), rename or delete. Hidden while there are none.
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
        const stored = {done: entry.done, total: entry.totalRows, why: failureNote({status: entry.status, fatalError: entry.error}) ?? ""};
        if (entry.jobId !== job?.id) return {...stored, status: entry.interrupted ? "interrupted" : entry.status};
        // This page's job: stored as running while it starts, interrupted only when restored so.
        if (progress?.jobId !== entry.jobId) return {...stored, status: job.interrupted ? "interrupted" : entry.status};
        return {done: progress.done, total: progress.totalRows, why: failureNote(progress) ?? "", status: !active && job.interrupted ? "interrupted" : progress.status};
    };
    return (
        <section className="card saved-jobs-card" data-testid="saved-jobs">
            <div className="card-title-row">
                <h3>Saved jobs</h3>
                <span className="muted small">kept in the app's data folder as they are scored, until you delete them</span>
            </div>
            <div className="table-scroll">
            <table className="table compact">
                <tbody>
                    {saved.map((entry) => {
                        const shown = view(entry);
                        const open = entry.jobId === job?.id && job.table === table;
                        const running = entry.jobId === job?.id && active;
                        return (
                            <tr key={entry.jobId} data-testid="saved-job" data-job-id={entry.jobId} className={open ? "is-open" : undefined}>
                                <JobNameCell entry={entry} />
                                <td className="mono small" data-testid="saved-job-rows">{shown.done.toLocaleString("en-US")} / {shown.total === null ? "?" : shown.total.toLocaleString("en-US")} rows</td>
                                <td>
                                    <span className={`status-badge status-${badgeClass(shown.status)}`} data-testid="saved-job-status">{shown.status}</span>
                                    {shown.status === "failed" && <div className="field-error inline small saved-job-why" data-testid="saved-job-why" title={shown.why}>{shown.why}</div>}
                                </td>
                                <td><div className="saved-job-actions">
                                    {!entry.hasTable && <span className="field-warning inline">table not saved</span>}
                                    {open ? <span className="muted small">open</span> : (
                                        <button type="button" className="btn btn-sm" disabled={active || !entry.hasTable} data-testid="saved-job-open"
                                            onClick={() => void openSavedJob(entry.jobId)}>Open</button>
                                    )}
                                    <button type="button" className="btn btn-sm" disabled={running} data-testid="saved-job-delete" onClick={() => {
                                        if (confirm(`Delete the saved job "${jobName(entry)}" (${shown.done.toLocaleString("en-US")} scored rows)? Export its results first if you need them.`)) void deleteSavedJob(entry.jobId);
                                    }}>Delete</button>
                                </div></td>
                            </tr>
                        );
                    })}
                </tbody>
            </table>
            </div>
        </section>
    );
}
