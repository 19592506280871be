import {ImportCard} from "./import/ImportCard.tsx";
import {InputMappingCard} from "./mapping/InputMappingCard.tsx";
import {SavedJobsCard} from "./persist/SavedJobsCard.tsx";
import {ResultsCard} from "./results/ResultsCard.tsx";
import {ScoringRunCard} from "./run/ScoringRunCard.tsx";
import "./scoring.css";

/** Spreadsheet scoring: a table in, the question set over every row, results out; jobs saved in the browser. */
export function ScoringScreen() {
    return (
        <div className="page scoring-page" data-testid="scoring-screen">
            <SavedJobsCard />
            <ImportCard />
            <div className="scoring-setup">
                <InputMappingCard />
                <ScoringRunCard />
            </div>
            <ResultsCard />
        </div>
    );
}
