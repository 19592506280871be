import type {CellValue} from "../types.ts";

/**
 * An exceljs cell value as a plain cell: rich text joined, hyperlinks as their text, formulas as their cached
 * result, errors as their code (`#DIV/0!`), dates as ISO 8601 (a date alone when there is no time of day).
 */
export function toCellValue(value: unknown): CellValue {
    if (value === null || value === undefined) return null;
    if (typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    if (value instanceof Date) return formatDate(value);
    if (typeof value === "object") {
        const object = value as Record<string, unknown>;
        if (Array.isArray(object.richText)) return object.richText.map((run: {text?: unknown}) => String(run.text ?? "")).join("");
        if ("error" in object) return String(object.error);
        if ("formula" in object || "sharedFormula" in object) return toCellValue(object.result);
        if ("hyperlink" in object) return toCellValue(object.text ?? object.hyperlink);
        if ("text" in object) return toCellValue(object.text);
    }
    return String(value);
}

function formatDate(date: Date): string {
    if (Number.isNaN(date.getTime())) return "";
    const iso = date.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/** exceljs row values are 1-based and sparse (`[, a, , c]`): a dense 0-based row. */
export function toSheetRow(values: unknown): CellValue[] {
    if (!Array.isArray(values)) return [];
    const row: CellValue[] = [];
    for (let index = 1; index < values.length; index++) row.push(toCellValue(values[index]));
    return row;
}
