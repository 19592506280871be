import type {SheetRow} from "../../../../client/scoring/index.ts";

/**
 * The column most likely to hold the text to evaluate: the one with the longest cells on average over the
 * first rows (ids, labels and numbers are short); the first column when there are no rows.
 */
export function textColumn(columns: readonly string[], rows: readonly SheetRow[], sample = 50): string | null {
    if (columns.length === 0) return null;
    const head = rows.slice(0, sample);
    let best = 0, bestLength = -1;
    columns.forEach((_, index) => {
        const length = head.reduce((sum, row) => sum + (typeof row[index] === "string" ? (row[index] as string).length : 0), 0);
        if (length > bestLength) {
            best = index;
            bestLength = length;
        }
    });
    return columns[best];
}
