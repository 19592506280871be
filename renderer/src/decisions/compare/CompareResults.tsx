import {useEffect, useRef} from "react";
import {ApiErrorView} from "../../components/ApiErrorView.tsx";
import {compareAnswers} from "../model/compareAnswers.ts";
import {AnswerCard} from "../run/AnswerCard.tsx";
import type {DecisionRunResult} from "../run/executeDecision.ts";
import {RunMeta} from "../run/RunMeta.tsx";

type Props = {a: DecisionRunResult, b: DecisionRunResult};

/** Both runs side by side, question by question (paired by name), with how far apart the answers are. */
export function CompareResults({a, b}: Props) {
    const rows = compareAnswers(a.views ?? [], b.views ?? []);
    const panel = useRef<HTMLDivElement>(null);
    // A block body: newer browsers return a promise from scrollIntoView, which React would take for a cleanup.
    useEffect(() => {
        panel.current?.scrollIntoView({block: "start", behavior: "smooth"});
    }, [a, b]);
    return (
        <div className="compare-results" data-testid="compare-results" ref={panel}>
            <div className="compare-columns">
                {[a, b].map((result, index) => (
                    <div key={index} className="compare-column" data-testid={`compare-result-${index === 0 ? "a" : "b"}`} data-status={result.status}>
                        <div className="compare-row-head"><span className="compare-side-letter">{index === 0 ? "A" : "B"}</span><span className="muted small">{result.format === "decisions" ? "/v1/decisions" : "/v1/systemone"}</span></div>
                        {result.error && <ApiErrorView error={result.error} />}
                        {result.status !== "error" && <RunMeta result={result} />}
                    </div>
                ))}
            </div>
            {rows.map((row) => (
                <div key={row.name} className="compare-row" data-testid="compare-row">
                    <div className="compare-row-head">
                        <span className="strong mono">{row.name}</span>
                        {row.samePick !== null && <span className={`badge ${row.samePick ? "badge-ok" : "badge-warn"}`} data-testid="compare-same-pick">{row.samePick ? "same pick" : "different pick"}</span>}
                        {row.maxDifference !== null && <span className="badge" data-testid="compare-max-diff">max |Δp| {row.maxDifference.toFixed(2)}</span>}
                        {row.delta !== null && <span className="badge">Δ {row.delta >= 0 ? "+" : ""}{row.delta.toFixed(2)}</span>}
                    </div>
                    <div className="compare-columns">
                        {row.a ? <AnswerCard view={row.a} format={a.format} /> : <div className="empty-state small">Not in A</div>}
                        {row.b ? <AnswerCard view={row.b} format={b.format} /> : <div className="empty-state small">Not in B</div>}
                    </div>
                </div>
            ))}
        </div>
    );
}
