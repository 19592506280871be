// Plain-text tables for the CLIs (the admin commands, svc-studio eval).
/** Rows as a plain-text table: a header line, then one line per row, columns padded (numbers to the right). */
export function formatTable(headers: string[], rows: string[][]): string {
    const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]?.length ?? 0)));
    const numeric = headers.map((_, column) => rows.length > 0 && rows.every((row) => /^-?[\d.]+$/.test(row[column] ?? "")));
    const line = (cells: string[]) => cells.map((cell, column) => numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))
        .join("  ").trimEnd();
    return [line(headers), ...rows.map(line)].join("\n");
}
