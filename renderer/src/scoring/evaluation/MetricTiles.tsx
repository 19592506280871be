import {formatMetric} from "./formatMetric.ts";

type Props = {metrics: Array<{label: string, value: number | null | undefined, hint?: string, id: string}>};

/** A row of headline metrics. */
export function MetricTiles({metrics}: Props) {
    return (
        <div className="metric-tiles">
            {metrics.map((metric) => (
                <div className="metric-tile" key={metric.id} title={metric.hint} data-testid={`metric-${metric.id}`}>
                    <span className="metric-label">{metric.label}</span>
                    <span className="metric-value mono">{formatMetric(metric.value)}</span>
                </div>
            ))}
        </div>
    );
}
