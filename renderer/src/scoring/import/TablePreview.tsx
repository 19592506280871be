import {formatCell} from "../results/formatCell.ts";
import type {LoadedTable} from "../state/useScoringStore.ts";

/** The first rows of the table, as read. */
export function TablePreview({table, rows = 6}: {table: LoadedTable, rows?: number}) {
    return (
        <div className="table-preview" data-testid="table-preview">
            <table className="table compact">
                <thead><tr><th>#</th>{table.columns.map((column) => <th key={column}>{column}</th>)}</tr></thead>
                <tbody>
                    {table.rows.slice(0, rows).map((row, index) => (
                        <tr key={index}>
                            <td className="muted mono">{index + 1}</td>
                            {row.map((cell, column) => <td key={column} title={formatCell(cell)}>{formatCell(cell)}</td>)}
                        </tr>
                    ))}
                </tbody>
            </table>
        </div>
    );
}
