import type {CellValue} from "../../../../client/scoring/index.ts";
import type {XlsxExportAnswer, XlsxExportRequest} from "./xlsxExportProtocol.ts";
import XlsxExportWorker from "./xlsxExportWorker.ts?worker";

const chunkRows = 5_000;

/**
 * client/spreadsheets/xlsx/buildXlsx, run in a Web Worker: the same workbook, without blocking the page. Rows
 * are sent in chunks as they are joined, so the page never holds a second copy of the whole export.
 */
export async function buildXlsxInWorker(columns: readonly string[], rows: AsyncIterable<CellValue[]> | Iterable<CellValue[]>, sheetName = "Results"): Promise<Uint8Array> {
    const worker = new XlsxExportWorker();
    const send = (request: XlsxExportRequest) => worker.postMessage(request);
    try {
        const answer = new Promise<Uint8Array>((resolve, reject) => {
            worker.onmessage = (event: MessageEvent<XlsxExportAnswer>) => {
                if (event.data.type === "built") resolve(event.data.bytes);
                else reject(new Error(event.data.message));
            };
            worker.onerror = (event) => reject(new Error(event.message || "the XLSX writer failed"));
        });
        let chunk: CellValue[][] = [];
        for await (const row of rows) {
            chunk.push(row);
            if (chunk.length < chunkRows) continue;
            send({type: "rows", rows: chunk});
            chunk = [];
        }
        if (chunk.length > 0) send({type: "rows", rows: chunk});
        send({type: "build", columns: [...columns], sheetName});
        return await answer;
    } finally {
        worker.terminate();
    }
}
