import {buildXlsx, type CellValue} from "../../../../client/scoring/index.ts";
import type {XlsxExportAnswer, XlsxExportRequest} from "./xlsxExportProtocol.ts";

// Builds one XLSX workbook off the page's thread: exceljs takes seconds for 100,000 rows, which on the page
// froze every view until the download started. One workbook per worker.

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
