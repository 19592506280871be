type Props = {labels: string[], matrix: number[][]};

/** Rows: the labelled class; columns: the predicted one; darker is more rows. */
export function ConfusionMatrix({labels, matrix}: Props) {
    const max = Math.max(1, ...matrix.flat());
    return (
        <div className="confusion" data-testid="confusion-matrix">
            <div className="eval-chart-title">Confusion matrix <span className="muted small">rows: label · columns: predicted</span></div>
            <table className="confusion-table">
                <thead><tr><th />{labels.map((label) => <th key={label} title={label}>{label}</th>)}</tr></thead>
                <tbody>
                    {matrix.map((row, actual) => (
                        <tr key={labels[actual]}>
                            <th title={labels[actual]}>{labels[actual]}</th>
                            {row.map((count, predicted) => (
                                <td key={predicted} className={`mono${actual === predicted ? " diagonal" : ""}`}
                                    style={{background: `color-mix(in srgb, var(${actual === predicted ? "--ok" : "--danger"}) ${Math.round(8 + 60 * count / max)}%, transparent)`}}>{count}</td>
                            ))}
                        </tr>
                    ))}
                </tbody>
            </table>
        </div>
    );
}
