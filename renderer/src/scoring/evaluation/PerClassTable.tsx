import type {ClassMetrics} from "../../../../client/scoring/index.ts";
import {formatMetric} from "./formatMetric.ts";

/** Precision, recall, F1 and support of each class. */
export function PerClassTable({classes}: {classes: ClassMetrics[]}) {
    return (
        <table className="table compact per-class" data-testid="per-class-table">
            <thead><tr><th>Class</th><th>Precision</th><th>Recall</th><th>F1</th><th>Support</th><th>Predicted</th></tr></thead>
            <tbody>
                {classes.map((item) => (
                    <tr key={item.label}>
                        <td className="mono">{item.label}</td>
                        <td className="mono">{formatMetric(item.precision)}</td>
                        <td className="mono">{formatMetric(item.recall)}</td>
                        <td className="mono">{formatMetric(item.f1)}</td>
                        <td className="mono">{item.support}</td>
                        <td className="mono">{item.predicted}</td>
                    </tr>
                ))}
            </tbody>
        </table>
    );
}
