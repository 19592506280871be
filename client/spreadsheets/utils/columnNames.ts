import type {SheetRow} from "../types.ts";

/**
 * Column names from a header row: trimmed, an empty one becomes `column_<n>` (1-based position), and a repeat
 * gets `_2`, `_3`... so every name is unique and a template or a label picker can name any column.
 */
export function columnNames(header: SheetRow): string[] {
    const taken = new Set<string>();
    const names = header.map((cell, index) => {
        const text = cell === null ? "" : String(cell).trim();
        return text === "" ? `column_${index + 1}` : text;
    });
    return names.map((name) => {
        let unique = name;
        for (let suffix = 2; taken.has(unique); suffix++) unique = `${name}_${suffix}`;
        taken.add(unique);
        return unique;
    });
}

/** `column_1` ... `column_<width>` for a sheet without a header row. */
export function positionalColumnNames(width: number): string[] {
    return Array.from({length: width}, (_, index) => `column_${index + 1}`);
}
