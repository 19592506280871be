import type {CellValue} from "../../../../client/scoring/index.ts";

export type RowFilter = {
    /** Case-insensitive text every kept row holds in `column` (or in any column when null); "" keeps all. */
    text: string,
    column: number | null,
    /** Keep only rows whose request failed. */
    errorsOnly: boolean
};

/** The rows of `order` that pass the filter, in the same order. */
export function filterRowOrder(order: readonly number[], cellsOf: (rowIndex: number) => readonly (CellValue | undefined)[], isError: (rowIndex: number) => boolean, filter: RowFilter): number[] {
    const needle = filter.text.trim().toLocaleLowerCase();
    if (needle === "" && !filter.errorsOnly) return [...order];
    return order.filter((rowIndex) => {
        if (filter.errorsOnly && !isError(rowIndex)) return false;
        if (needle === "") return true;
        const cells = cellsOf(rowIndex);
        const holds = (cell: CellValue | undefined) => cell !== null && cell !== undefined && String(cell).toLocaleLowerCase().includes(needle);
        return filter.column === null ? cells.some(holds) : holds(cells[filter.column]);
    });
}
