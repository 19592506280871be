// The "probabilities" view of a reply: tokens shaded by probability, their alternatives on hover or when opened, and
// the sequence's total log-probability and perplexity. It shows only when the server returned scores. When the
// scores carry token ids (the local engine's `x_svc.token_ids`), the popover reads them out with one-click
// logit_bias entries; without ids (a remote server) the readout is not shown.
import {type CSSProperties, useLayoutEffect, useRef, useState} from "react";
import {type TokenScore, biasPresets, percent, showToken, summarize} from "./probabilities.ts";
import {echoedCountsNote, scoredCountDefinition, scoredTokensNote} from "./runNumbers.ts";

/** Sets `bias` for token `id` in the parameters panel's logit_bias editor. */
export type AddLogitBias = (id: number, bias: number) => void;

/**
 * `usage`: the reply's usage, whose output tokens the count is compared with; `choices`: how many choices share that
 * usage; `echoed`: the scores include the echoed prompt (legacy `echo`), which usage does not count as output.
 */
type TokenProbabilitiesProps = {
    scores: readonly TokenScore[] | undefined,
    onBias?: AddLogitBias,
    usage?: Record<string, unknown>,
    choices?: number,
    echoed?: boolean
};

export function TokenProbabilities({scores, onBias, usage, choices, echoed}: TokenProbabilitiesProps) {
    // The strip is one tab stop: `current` is the chip that has it (roving tabindex), `open` the chip whose alternatives
    // Enter, Space or a click showed (hovering shows them too, through CSS).
    const [current, setCurrent] = useState(0);
    const [open, setOpen] = useState<number | null>(null);
    const strip = useRef<HTMLDivElement>(null);
    if (scores == null || scores.length === 0) return null;
    const summary = summarize(scores);
    const note = summary == null ? null : echoed ? echoedCountsNote(scores.length, summary.count, usage) : scoredTokensNote(summary.count, usage, {choices, echoed});
    const tabStop = Math.min(current, scores.length - 1);
    const focusChip = (index: number) => {
        setCurrent(index);
        setOpen(null);
        strip.current?.querySelectorAll<HTMLElement>(".token-chip-text")[index]?.focus();
    };
    return (
        <div className="token-probabilities" data-testid="token-probabilities">
            <div className="token-summary muted" data-testid="token-summary">
                {summary == null ? "no scored tokens" : (
                    <>
                        <span title={scoredCountDefinition} data-testid="token-count">{summary.count} tokens scored</span>
                        {" · "}total log-prob <span className="mono">{summary.total.toFixed(3)}</span>
                        {" · "}perplexity <span className="mono">{summary.perplexity.toFixed(2)}</span>
                    </>
                )}
            </div>
            {note && <div className="token-usage-note muted" data-testid="token-usage-note">{note}</div>}
            <div className="token-strip" role="toolbar" aria-label="Scored tokens: arrow keys move, Enter shows a token's alternatives" ref={strip}
                data-testid="token-strip">
                {scores.map((score, index) => (
                    <TokenChip key={index} score={score} onBias={onBias} tabStop={index === tabStop} open={open === index}
                        onOpen={(next) => {
                            setCurrent(index);
                            setOpen(next ? index : null);
                        }}
                        onMove={(key) => {
                            const next = {ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: scores.length - 1}[key];
                            if (next === undefined) return false;
                            focusChip(Math.max(0, Math.min(scores.length - 1, next)));
                            return true;
                        }} />
                ))}
            </div>
        </div>
    );
}

type TokenChipProps = {
    score: TokenScore,
    onBias?: AddLogitBias,
    /** The strip's one tab stop. */
    tabStop: boolean,
    /** Its alternatives are shown (Enter, Space or a click); hovering shows them too. */
    open: boolean,
    onOpen: (open: boolean) => void,
    /** Moves along the strip for an arrow key, Home or End; false for any other key. */
    onMove: (key: string) => boolean
};

/**
 * One token, shaded by its probability; its popover lists the alternatives, shown on hover or once opened with Enter,
 * Space or a click (Tab then reaches its logit_bias buttons, Escape closes it), never merely on focus.
 */
function TokenChip({score, onBias, tabStop, open, onOpen, onMove}: TokenChipProps) {
    const chip = useRef<HTMLSpanElement>(null);
    const probability = score.logprob == null ? null : Math.exp(score.logprob);
    const label = `${JSON.stringify(score.token)}: ${score.logprob == null ? "not scored" : percent(score.logprob)}`;
    useLayoutEffect(() => {
        if (open && chip.current != null) keepPopoverInside(chip.current);
    }, [open]);
    return (
        <span ref={chip} className={`token-chip mono${probability == null ? "" : " scored"}${open ? " open" : ""}`} data-testid="token-chip"
            onMouseEnter={(event) => keepPopoverInside(event.currentTarget)}
            onBlur={(event) => {
                // Focus gone from the chip and its popover: the popover closes.
                if (open && !event.currentTarget.contains(event.relatedTarget)) onOpen(false);
            }}
            onKeyDown={(event) => {
                if (event.key !== "Escape" || !open) return;
                event.stopPropagation();
                onOpen(false);
                event.currentTarget.querySelector<HTMLElement>(".token-chip-text")?.focus();
            }}
            style={probability == null ? undefined : {"--token-shade-alpha": (0.1 + 0.6 * probability).toFixed(3)} as CSSProperties}>
            <span className="token-chip-text" role="button" tabIndex={tabStop ? 0 : -1} aria-label={label} aria-expanded={open}
                onClick={() => onOpen(!open)}
                onKeyDown={(event) => {
                    if (event.altKey || event.ctrlKey || event.metaKey) return;
                    if (event.key === "Enter" || event.key === " ") {
                        event.preventDefault();
                        onOpen(!open);
                    } else if (onMove(event.key)) event.preventDefault();
                }}>
                {showToken(score.token)}
            </span>
            <span className="token-popover" role="group" aria-label={`Alternatives to ${JSON.stringify(score.token)}`} data-testid="token-popover">
                <span className="token-popover-head">
                    {JSON.stringify(score.token)} · {score.logprob == null ? "not scored (nothing before it)" : `${percent(score.logprob)} · logprob ${score.logprob.toFixed(4)}`}
                    {score.id != null && <> · <TokenId id={score.id} /></>}
                </span>
                {score.top.map((alternative, index) => (
                    <span key={index} className={`token-alternative${alternative.token === score.token ? " chosen" : ""}`} data-testid="token-alternative">
                        <span className="mono">{showToken(alternative.token)}</span>
                        {alternative.id != null && <TokenId id={alternative.id} />}
                        <span className="mono push-right">{percent(alternative.logprob)}</span>
                        {alternative.id != null && onBias != null && <BiasButtons token={alternative.token} id={alternative.id} onBias={onBias} />}
                    </span>
                ))}
            </span>
        </span>
    );
}

/**
 * Places a chip's popover as it opens (CSS has just made it visible) so that it stays in view: towards the left when,
 * opened to the right, it would pass the right edge of the token strip, and above the chip when it would pass the
 * bottom of the scrolling column that holds it and there is room above.
 */
function keepPopoverInside(chip: HTMLElement) {
    const popover = chip.querySelector<HTMLElement>(".token-popover");
    const strip = chip.closest(".token-strip");
    if (popover == null || strip == null) return;
    // Data attributes, not classes: React owns the chip's className.
    delete chip.dataset.popoverSide;
    delete chip.dataset.popoverAbove;
    const box = popover.getBoundingClientRect();
    if (box.right > strip.getBoundingClientRect().right) chip.dataset.popoverSide = "left";
    let scroller = chip.parentElement;
    while (scroller != null && !/auto|scroll/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    const view = scroller?.getBoundingClientRect() ?? {top: 0, bottom: window.innerHeight};
    const top = chip.getBoundingClientRect().top;
    if (box.bottom > view.bottom && top - view.top > box.height) chip.dataset.popoverAbove = "true";
}

function TokenId({id}: {id: number}) {
    return <span className="token-id mono muted" data-testid="token-id" title="token id, for logit_bias">#{id}</span>;
}

/** The one-click logit_bias entries for the alternative `token`, each named after it ("Ban “ the”"). */
function BiasButtons({token, id, onBias}: {token: string, id: number, onBias: AddLogitBias}) {
    return (
        <span className="token-bias-buttons">
            {biasPresets.map(({label, bias}) => (
                <button key={label} type="button" className="link-btn" data-testid={`token-bias-${label}`} title={`logit_bias ${id}: ${bias}`}
                    aria-label={`${label[0].toUpperCase()}${label.slice(1)} “${JSON.stringify(token).slice(1, -1)}”`} onClick={() => onBias(id, bias)}>
                    {label}
                </button>
            ))}
        </span>
    );
}
