import {useNavStore} from "../state/useNavStore.ts";
import {QuestionEvaluationCard} from "./evaluation/QuestionEvaluationCard.tsx";
import {useScoringStore} from "./state/useScoringStore.ts";
import "./scoring.css";

/** The last scoring job's answers against label columns of its table: metrics per question, and calibration. */
export function EvaluationScreen() {
    const job = useScoringStore((state) => state.job);
    const progress = useScoringStore((state) => state.progress);
    const go = useNavStore((state) => state.go);
    if (job === null) return (
        <div className="page" data-testid="evaluation-screen">
            <div className="empty-state">
                Score a table first: <button type="button" className="link-btn" onClick={() => go("scoring")}>Spreadsheet scoring</button>. Its columns can then serve as labels.
            </div>
        </div>
    );
    return (
        <div className="page evaluation-page" data-testid="evaluation-screen">
            <div className="muted small">
                {job.table.fileName} · {progress ? `${progress.succeeded.toLocaleString("en-US")} answered rows` : "…"}{progress?.status === "running" ? " (still scoring: figures update)" : ""}
            </div>
            {job.infos.map((info, index) => <QuestionEvaluationCard key={info.name} job={job} info={info} index={index} />)}
        </div>
    );
}
