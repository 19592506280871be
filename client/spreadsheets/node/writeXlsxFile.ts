import {rename, rm} from "node:fs/promises";
import ExcelJS from "exceljs";
import type {CellValue} from "../types.ts";

/**
 * Streams an XLSX (one sheet, bold header row) to `filePath` with exceljs's streaming writer: each row is
 * committed as it comes, so 100,000 rows do not sit in memory. Written next to the target, then renamed.
 */
export async function writeXlsxFile(filePath: string, columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, sheetName = "Results"): Promise<void> {
    const temporary = `${filePath}.${process.pid}.tmp`;
    try {
        const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({filename: temporary, useSharedStrings: true, useStyles: true});
        const worksheet = workbook.addWorksheet(sheetName);
        const header = worksheet.addRow([...columns]);
        header.font = {bold: true};
        header.commit();
        for await (const row of rows) worksheet.addRow(row).commit();
        worksheet.commit();
        await workbook.commit();
        await rename(temporary, filePath);
    } catch (error) {
        await rm(temporary, {force: true});
        throw error;
    }
}
