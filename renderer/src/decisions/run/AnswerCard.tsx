import type {AnswerView} from "../model/answerViews.ts";
import type {QuestionFormat} from "../model/types.ts";
import {ChoiceBars} from "./ChoiceBars.tsx";
import {ProbabilityGauge} from "./ProbabilityGauge.tsx";
import {ScoreDistribution} from "./ScoreDistribution.tsx";

const kindLabels = {
    decisions: {yesno: "predicate", choice: "choice", score: "score"},
    systemone: {yesno: "noul", choice: "choice", score: "score"}
} as const;

/** One answer: its chart, pick, confidence, the sum of its probabilities, and the explanation when asked for. */
export function AnswerCard({view, format}: {view: AnswerView, format: QuestionFormat}) {
    const sum = view.options.reduce((total, option) => total + option.probability, 0);
    return (
        <article className="card answer-card" data-testid="answer-card" data-kind={view.kind} data-name={view.name}>
            <div className="answer-head">
                <span className="strong mono">{view.name}</span>
                <span className="badge">{kindLabels[format][view.kind]}</span>
                {view.calibrated && <span className="badge badge-accent" data-testid="answer-calibrated" title="Probabilities went through the calibration saved with the set">calibrated</span>}
                <span className="push-right answer-pick mono" data-testid="answer-pick">
                    {view.kind === "yesno" && (view.probability! >= 0.5 ? "true" : "false")}
                    {view.kind === "choice" && String(view.choice)}
                    {view.kind === "score" && `score ${view.score!.toFixed(2)}`}
                </span>
            </div>
            {view.kind === "yesno" && <ProbabilityGauge probability={view.probability!} />}
            {view.kind === "choice" && <ChoiceBars options={view.options} />}
            {view.kind === "score" && <ScoreDistribution options={view.options} score={view.score!} />}
            <div className="answer-stats">
                {view.confidence !== null && <span className="stat"><span className="stat-label">confidence</span><span className="stat-value mono" data-testid="answer-confidence">{view.confidence.toFixed(2)}</span></span>}
                <span className="stat" title="Sum of the probabilities shown"><span className="stat-label">Σ p</span><span className="stat-value mono" data-testid="prob-sum">{sum.toFixed(2)}</span></span>
                {view.serverProbabilities && (
                    <span className="stat" title="The server's probabilities, before calibration">
                        <span className="stat-label">server</span>
                        <span className="stat-value mono">{view.serverProbabilities.map((probability) => probability.toFixed(2)).join(" / ")}</span>
                    </span>
                )}
            </div>
            {view.explanation !== null && <p className="answer-explanation" data-testid="answer-explanation">{view.explanation}</p>}
        </article>
    );
}
