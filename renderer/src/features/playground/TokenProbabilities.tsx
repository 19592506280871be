// The "probabilities" view of a reply: tokens shaded by probability, their alternatives on hover or focus, and
// the sequence's total log-probability and perplexity. It shows only when the server returned scores.
import {type TokenScore, percent, showToken, summarize} from "./probabilities.ts";

type TokenProbabilitiesProps = {scores: readonly TokenScore[] | undefined};

export function TokenProbabilities({scores}: TokenProbabilitiesProps) {
    if (scores == null || scores.length === 0) return null;
    const summary = summarize(scores);
    return (
        <div className="token-probabilities" data-testid="token-probabilities">
            <div className="token-summary muted" data-testid="token-summary">
                {summary == null ? "no scored tokens" : (
                    <>
                        {summary.count} tokens · total log-prob <span className="mono">{summary.total.toFixed(3)}</span>
                        {" · "}perplexity <span className="mono">{summary.perplexity.toFixed(2)}</span>
                    </>
                )}
            </div>
            <div className="token-strip">
                {scores.map((score, index) => <TokenChip key={index} score={score} />)}
            </div>
        </div>
    );
}

/** One token, shaded by its probability; the popover lists its alternatives (CSS shows it on hover and focus). */
function TokenChip({score}: {score: TokenScore}) {
    const probability = score.logprob == null ? null : Math.exp(score.logprob);
    const label = `${JSON.stringify(score.token)}: ${score.logprob == null ? "not scored" : percent(score.logprob)}`;
    return (
        <span className="token-chip mono" tabIndex={0} data-testid="token-chip" aria-label={label}
            style={{backgroundColor: probability == null ? undefined : `rgba(80, 160, 255, ${(0.1 + 0.6 * probability).toFixed(3)})`}}>
            {showToken(score.token)}
            <span className="token-popover" role="tooltip" data-testid="token-popover">
                <span className="token-popover-head">
                    {JSON.stringify(score.token)} · {score.logprob == null ? "not scored (nothing before it)" : `${percent(score.logprob)} · logprob ${score.logprob.toFixed(4)}`}
                </span>
                {score.top.map((alternative, index) => (
                    <span key={index} className={`token-alternative${alternative.token === score.token ? " chosen" : ""}`}>
                        <span className="mono">{showToken(alternative.token)}</span>
                        <span className="mono">{percent(alternative.logprob)}</span>
                    </span>
                ))}
            </span>
        </span>
    );
}
