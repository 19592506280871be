import type {CellValue} from "../../../../client/scoring/index.ts";

export type SortDirection = "asc" | "desc";

/**
 * Row indexes ordered by one column: numbers (and numeric text) by value, other text in natural locale order,
 * booleans as false < true; empty cells always last. Stable: equal cells keep their row order.
 */
export function sortRowOrder(order: readonly number[], cellOf: (rowIndex: number) => CellValue | undefined, direction: SortDirection): number[] {
    const sign = direction === "asc" ? 1 : -1;
    const keyed = order.map((rowIndex, position) => ({rowIndex, position, key: sortKey(cellOf(rowIndex))}));
    const collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});
    keyed.sort((a, b) => {
        if (a.key === null || b.key === null) return a.key === b.key ? a.position - b.position : a.key === null ? 1 : -1;
        let compared: number;
        if (typeof a.key === "number" && typeof b.key === "number") compared = a.key - b.key;
        else if (typeof a.key === "number") compared = -1;
        else if (typeof b.key === "number") compared = 1;
        else compared = collator.compare(a.key, b.key);
        return compared === 0 ? a.position - b.position : compared * sign;
    });
    return keyed.map((entry) => entry.rowIndex);
}

function sortKey(cell: CellValue | undefined): number | string | null {
    if (cell === null || cell === undefined || cell === "") return null;
    if (typeof cell === "number") return cell;
    if (typeof cell === "boolean") return cell ? 1 : 0;
    const trimmed = cell.trim();
    const number = Number(trimmed);
    return trimmed !== "" && Number.isFinite(number) ? number : cell;
}
