import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {AnswerCard} from "./AnswerCard.tsx";
import type {DecisionRunResult} from "./executeDecision.ts";
import {RunMeta} from "./RunMeta.tsx";

/** A run's answer cards and figures, its error as the server sent it, or the note that it was stopped. */
export function RunResultView({result, testId}: {result: DecisionRunResult, testId: string}) {
    return (
        <div className="run-result" data-testid={testId} data-status={result.status}>
            {result.error && <ApiErrorView error={result.error} />}
            {result.status === "stopped" && <div className="field-warning">Stopped before the answers came.</div>}
            {result.views && (
                <div className="answer-grid">
                    {result.views.map((view) => <AnswerCard key={view.name} view={view} format={result.format} />)}
                </div>
            )}
            {result.status !== "error" || result.usage ? <RunMeta result={result} /> : null}
        </div>
    );
}
