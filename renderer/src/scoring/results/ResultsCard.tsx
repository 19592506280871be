import {useScoringStore} from "../state/useScoringStore.ts";
import {ExportButtons} from "./ExportButtons.tsx";
import {QuestionHistograms} from "./QuestionHistograms.tsx";
import {ResultsGrid} from "./ResultsGrid.tsx";

/** The job's results: a histogram per question, the grid, and the exports. */
export function ResultsCard() {
    const table = useScoringStore((state) => state.table);
    const job = useScoringStore((state) => state.job);
    if (table === null) return null;
    // Results belong to the table the job scored; another file shows without them.
    const current = job !== null && job.table === table ? job : null;
    return (
        <section className="card results-card" data-testid="results-card">
            <div className="card-title-row">
                <h3>4 · Results</h3>
                {current && <div className="push-right"><ExportButtons job={current} /></div>}
            </div>
            {current && <QuestionHistograms job={current} />}
            <ResultsGrid table={table} job={current} />
        </section>
    );
}
