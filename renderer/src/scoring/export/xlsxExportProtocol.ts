import type {CellValue} from "../../../../client/scoring/index.ts";

// Messages between buildXlsxInWorker (page) and xlsxExportWorker: the rows go over in chunks while the page
// still joins them, then "build" asks for the workbook, which comes back as a transferred buffer.

export type XlsxExportRequest =
    | {type: "rows", rows: CellValue[][]}
    | {type: "build", columns: string[], sheetName: string};

export type XlsxExportAnswer =
    | {type: "built", bytes: Uint8Array}
    | {type: "error", message: string};
