// Graders measured against human labels: per chat variant and grader with a human label column, its sensitivity,
// specificity, ECE and Cohen's κ on the labelled rows and its pass rate corrected for its errors, each column's
// definition on hover. Written by client/experiments/graderAgreementText, as in the HTML report and the CLI.
import {graderAgreementColumns, graderAgreementNote, graderAgreementRows} from "../../../../client/experiments/graderAgreementText.ts";
import type {ExperimentSummary} from "../../../../client/experiments/types.ts";

export function GraderAgreementCard({summary}: {summary: ExperimentSummary}) {
    const rows = graderAgreementRows(summary);
    if (rows.length === 0) return null;
    return (
        <section className="card exp-graders" data-testid="exp-graders">
            <div className="card-title-row"><h3>Graders against human labels</h3></div>
            <div className="table-scroll">
                <table className="table compact">
                    <thead>
                        <tr>{graderAgreementColumns.map((column) => <th key={column.label} scope="col" title={column.definition} className="exp-metric-name">{column.label}</th>)}</tr>
                    </thead>
                    <tbody>
                        {rows.map((row) => (
                            <tr key={`${row[0]}\u0000${row[1]}`} data-testid="exp-grader-row">
                                {row.map((text, index) => <td key={graderAgreementColumns[index].label} className={index < 2 ? undefined : "num mono"} title={graderAgreementColumns[index].definition}>{text}</td>)}
                            </tr>
                        ))}
                    </tbody>
                </table>
            </div>
            <div className="muted small">{graderAgreementNote}</div>
        </section>
    );
}
