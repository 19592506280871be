import type {DecisionRunResult} from "./executeDecision.ts";

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Usage (spec 2.3) and latency of one decision run: Server-Timing from the server, the total measured here. */
export function RunMeta({result}: {result: DecisionRunResult}) {
    return (
        <div className="run-stats" data-testid="decision-meta">
            {result.usage && (
                <div className="stat-group" data-testid="decision-usage">
                    {Object.entries(result.usage).map(([key, value]) => (
                        <span className="stat" key={key}><span className="stat-label">{key}</span><span className="stat-value mono">{value}</span></span>
                    ))}
                </div>
            )}
            <div className="stat-group">
                {result.serverTimingMs !== null && <span className="stat" data-testid="decision-server-timing"><span className="stat-label">Server-Timing</span><span className="stat-value mono">{ms(result.serverTimingMs)}</span></span>}
                <span className="stat" data-testid="decision-total"><span className="stat-label">total</span><span className="stat-value mono">{ms(result.durationMs)}</span></span>
                {result.attempts !== null && result.attempts > 1 && <span className="stat"><span className="stat-label">attempts</span><span className="stat-value mono">{result.attempts}</span></span>}
                <span className="stat"><span className="stat-label">via</span><span className="stat-value">{result.connectionName}</span></span>
            </div>
        </div>
    );
}
