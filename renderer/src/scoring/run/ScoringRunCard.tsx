import {useMemo} from "react";
import {Icon} from "../../components/Icon.tsx";
import {activeConnection} from "../../gateway/activeConnection.ts";
import {useGatewayState} from "../../gateway/useGatewayState.ts";
import {toQuestionSet} from "../../decisions/model/toQuestionSet.ts";
import {validateDraft} from "../../decisions/model/validateDraft.ts";
import {useQuestionSetStore} from "../../decisions/state/useQuestionSetStore.ts";
import {useNavStore} from "../../state/useNavStore.ts";
import {rowInput} from "../model/rowInput.ts";
import {useScoringStore} from "../state/useScoringStore.ts";
import {cancelScoring, continueScoring, pauseScoring, resumeScoring, startScoring} from "./scoringJob.ts";
import {ScoringProgress} from "./ScoringProgress.tsx";

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
            rowInput(table.columns, table.rows[0], mapping);
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
            {progress && (current || active) && <ScoringProgress progress={progress} interrupted={current && !active && job.interrupted === true} />}
        </section>
    );
}
