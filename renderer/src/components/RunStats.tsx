import type {RunState} from "../runs/types.ts";

type Props = {run: RunState, usage?: Record<string, unknown>};

const ms = (value: number | null | undefined) => value === undefined || value === null ? null : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Usage (spec 2.3) and timings of one reply: Server-Timing from the server, the rest measured here. */
export function RunStats({run, usage}: Props) {
    const {timing} = run;
    const completion = Number(usage?.completion_tokens ?? usage?.output_tokens);
    const generateMs = timing.totalMs !== undefined && timing.firstTokenMs !== undefined ? timing.totalMs - timing.firstTokenMs : undefined;
    const rate = Number.isFinite(completion) && completion > 1 && generateMs && generateMs > 0 ? (completion - 1) / (generateMs / 1000) : undefined;
    const cached = (usage?.prompt_tokens_details as {cached_tokens?: number} | undefined)?.cached_tokens
        ?? (usage?.input_tokens_details as {cached_tokens?: number} | undefined)?.cached_tokens;
    const items: Array<[string, string | null, string]> = [
        ["Server-Timing", ms(timing.serverTimingMs), "server-timing"],
        ["first byte", ms(timing.firstByteMs), "first-byte"],
        ["first token", ms(timing.firstTokenMs), "first-token"],
        ["total", ms(timing.totalMs), "total"],
        ["tokens/s", rate !== undefined ? rate.toFixed(0) : null, "rate"]
    ];
    return (
        <div className="run-stats" data-testid="run-stats">
            {usage && (
                <div className="stat-group" data-testid="usage">
                    {Object.entries(usage).filter(([, value]) => typeof value === "number").map(([key, value]) => (
                        <span className="stat" key={key}><span className="stat-label">{key}</span><span className="stat-value mono">{String(value)}</span></span>
                    ))}
                    {cached !== undefined && <span className="stat"><span className="stat-label">cached</span><span className="stat-value mono">{cached}</span></span>}
                </div>
            )}
            <div className="stat-group">
                {items.filter(([, value]) => value !== null).map(([label, value, id]) => (
                    <span className="stat" key={label} data-testid={`stat-${id}`}><span className="stat-label">{label}</span><span className="stat-value mono">{value}</span></span>
                ))}
                {timing.attempts !== undefined && timing.attempts > 1 && <span className="stat"><span className="stat-label">attempts</span><span className="stat-value mono">{timing.attempts}</span></span>}
            </div>
        </div>
    );
}
