// Builds one XLSX workbook off the page's thread: exceljs takes seconds for 100,000 rows, which on the page
// froze every view until the download started. One workbook per worker.
import {type CellValue, buildXlsx} from "../../../../client/scoring/index.ts";

// Messages between buildXlsxInWorker (page) and xlsxExportWorker: the rows go over in chunks while the page
// still joins them, then "build" asks for the workbook, which comes back as a transferred buffer.

export type XlsxExportRequest =
    | {type: "rows", rows: CellValue[][]}
    | {type: "build", columns: string[], sheetName: string};

export type XlsxExportAnswer =
    | {type: "built", bytes: Uint8Array}
    | {type: "error", message: string};

// The project's TypeScript lib is the DOM one (the WebWorker lib conflicts with it): the worker scope, as used here.
const scope = self as unknown as {
    postMessage: (message: XlsxExportAnswer, transfer?: Transferable[]) => void,
    onmessage: ((event: MessageEvent<XlsxExportRequest>) => void) | null
};
const rows: CellValue[][] = [];

scope.onmessage = async (event: MessageEvent<XlsxExportRequest>) => {
    const request = event.data;
    if (request.type === "rows") {
        for (const row of request.rows) rows.push(row);
        return;
    }
    try {
        const bytes = await buildXlsx(request.columns, rows, request.sheetName);
        scope.postMessage({type: "built", bytes}, [bytes.buffer]);
    } catch (error) {
        scope.postMessage({type: "error", message: error instanceof Error ? error.message : String(error)});
    }
};
