// The "probabilities" view of a reply: tokens shaded by probability, their alternatives on hover or focus, and
// the sequence's total log-probability and perplexity. It shows only when the server returned scores. When the
// scores carry token ids (the local engine's `x_svc.token_ids`), the popover reads them out with one-click
// logit_bias entries; without ids (a remote server) the readout is not shown.
import {type TokenScore, biasPresets, percent, showToken, summarize} from "./probabilities.ts";

/** Sets `bias` for token `id` in the parameters panel's logit_bias editor. */
export type AddLogitBias = (id: number, bias: number) => void;

type TokenProbabilitiesProps = {scores: readonly TokenScore[] | undefined, onBias?: AddLogitBias};

export function TokenProbabilities({scores, onBias}: TokenProbabilitiesProps) {
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
                {scores.map((score, index) => <TokenChip key={index} score={score} onBias={onBias} />)}
            </div>
        </div>
    );
}

/** One token, shaded by its probability; the popover lists its alternatives (CSS shows it on hover and focus). */
function TokenChip({score, onBias}: {score: TokenScore, onBias?: AddLogitBias}) {
    const probability = score.logprob == null ? null : Math.exp(score.logprob);
    const label = `${JSON.stringify(score.token)}: ${score.logprob == null ? "not scored" : percent(score.logprob)}`;
    return (
        <span className="token-chip mono" tabIndex={0} data-testid="token-chip" aria-label={label}
            style={{backgroundColor: probability == null ? undefined : `rgba(80, 160, 255, ${(0.1 + 0.6 * probability).toFixed(3)})`}}>
            {showToken(score.token)}
            <span className="token-popover" role="tooltip" data-testid="token-popover">
                <span className="token-popover-head">
                    {JSON.stringify(score.token)} · {score.logprob == null ? "not scored (nothing before it)" : `${percent(score.logprob)} · logprob ${score.logprob.toFixed(4)}`}
                    {score.id != null && <> · <TokenId id={score.id} /></>}
                </span>
                {score.top.map((alternative, index) => (
                    <span key={index} className={`token-alternative${alternative.token === score.token ? " chosen" : ""}`} data-testid="token-alternative">
                        <span className="mono">{showToken(alternative.token)}</span>
                        {alternative.id != null && <TokenId id={alternative.id} />}
                        <span className="mono push-right">{percent(alternative.logprob)}</span>
                        {alternative.id != null && onBias != null && <BiasButtons id={alternative.id} onBias={onBias} />}
                    </span>
                ))}
            </span>
        </span>
    );
}

function TokenId({id}: {id: number}) {
    return <span className="token-id mono muted" data-testid="token-id" title="token id, for logit_bias">#{id}</span>;
}

function BiasButtons({id, onBias}: {id: number, onBias: AddLogitBias}) {
    return (
        <span className="token-bias-buttons">
            {biasPresets.map(({label, bias}) => (
                <button key={label} type="button" className="link-btn" data-testid={`token-bias-${label}`} title={`logit_bias ${id}: ${bias}`}
                    onClick={() => onBias(id, bias)}>
                    {label}
                </button>
            ))}
        </span>
    );
}
