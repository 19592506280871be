import ExcelJS from "exceljs";
import type {CellValue} from "../types.ts";

/**
 * An XLSX file (one sheet, a bold header row) in memory, for a browser download; Node writes large files with
 * node/writeXlsxFile instead. Strings stay text even when they start with `=`: a cell is never a formula.
 */
export async function buildXlsx(columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, sheetName = "Results"): Promise<Uint8Array> {
    const workbook = new ExcelJS.Workbook();
    const worksheet = workbook.addWorksheet(sheetName);
    worksheet.addRow([...columns]).font = {bold: true};
    for await (const row of rows) worksheet.addRow(row);
    const buffer = await workbook.xlsx.writeBuffer();
    return new Uint8Array(buffer as ArrayBuffer);
}
