import type {SheetRow} from "./types.ts";
import {looksNumeric} from "./utils/looksNumeric.ts";

/**
 * Whether the first row of `sample` (the first rows of a sheet) names the columns. It does when every one of
 * its cells is a non-empty string that is not a number, no two are equal, and the rows below differ from it:
 * none of the names shows up again as a value in its own column. A sheet whose first row repeats below (a
 * headerless list of labels) or holds numbers, dates or blanks is read as data. The UI lets a person override it.
 */
export function detectHeader(sample: readonly SheetRow[]): boolean {
    const first = sample[0];
    if (first === undefined || first.length === 0) return false;
    const labels: string[] = [];
    for (const cell of first) {
        if (typeof cell !== "string" || cell.trim() === "" || looksNumeric(cell)) return false;
        labels.push(cell.trim());
    }
    if (new Set(labels).size !== labels.length) return false;
    for (const row of sample.slice(1))
        for (let column = 0; column < labels.length; column++) {
            const cell = row[column];
            if (typeof cell === "string" && cell.trim() === labels[column]) return false;
        }
    return true;
}
