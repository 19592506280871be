// A table whose every column carries its definition on hover (heading and cells), as the summary's text modules
// write them for the app, the HTML report and the CLI alike: the first `textColumns` columns are words, the rest
// numbers.

export type DefinedColumn = {label: string, definition: string};

export function DefinitionTable({columns, rows, rowTestId, label, textColumns = 2}: {columns: readonly DefinedColumn[], rows: readonly string[][], rowTestId: string, label: string, textColumns?: number}) {
    // A region that scrolls sideways at narrow widths takes the keyboard's focus, so it can be scrolled without a mouse.
    return (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
            <table className="table compact">
                <thead>
                    <tr>{columns.map((column) => <th key={column.label} scope="col" title={column.definition} className="exp-metric-name">{column.label}</th>)}</tr>
                </thead>
                <tbody>
                    {rows.map((row) => (
                        <tr key={row.slice(0, textColumns).join("\u0000")} data-testid={rowTestId}>
                            {row.map((text, index) => <td key={columns[index].label} className={index < textColumns ? undefined : "num mono"} title={columns[index].definition}>{text}</td>)}
                        </tr>
                    ))}
                </tbody>
            </table>
        </div>
    );
}
