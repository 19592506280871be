// Parses an XLSX workbook off the page's thread and streams its rows back in chunks. One workbook per worker.
import {type SheetRow, XlsxSpreadsheet} from "../../../../client/scoring/index.ts";

// Messages between WorkerXlsxSource (page) and xlsxWorker (a Web Worker that parses the workbook with exceljs,
// so a big file never blocks the page). Every request carries an id; answers name the id they answer.

export type XlsxWorkerRequest =
    | {type: "open", file: Blob}
    | {type: "sheets", id: number}
    | {type: "read", id: number, sheet: string | undefined, chunkRows: number}
    | {type: "cancel", id: number};

export type XlsxWorkerAnswer =
    | {type: "sheets", id: number, names: string[]}
    | {type: "rows", id: number, rows: SheetRow[]}
    | {type: "end", id: number}
    | {type: "error", id: number, message: string};

// The project's TypeScript lib is the DOM one (the WebWorker lib conflicts with it): the worker scope, as used here.
const scope = self as unknown as {postMessage: (message: XlsxWorkerAnswer) => void, onmessage: ((event: MessageEvent<XlsxWorkerRequest>) => void) | null};
let workbook: XlsxSpreadsheet | null = null;
const cancelled = new Set<number>();

const post = (answer: XlsxWorkerAnswer) => scope.postMessage(answer);

scope.onmessage = async (event: MessageEvent<XlsxWorkerRequest>) => {
    const request = event.data;
    if (request.type === "open") {
        workbook = XlsxSpreadsheet.fromBlob(request.file);
        return;
    }
    if (request.type === "cancel") {
        cancelled.add(request.id);
        return;
    }
    try {
        if (workbook === null) throw new Error("no workbook open");
        if (request.type === "sheets") {
            post({type: "sheets", id: request.id, names: await workbook.sheetNames()});
            return;
        }
        for await (const rows of workbook.readRows(request.sheet, request.chunkRows)) {
            if (cancelled.has(request.id)) break;
            post({type: "rows", id: request.id, rows});
            // Lets a "cancel" message in between chunks.
            await new Promise((resolve) => setTimeout(resolve, 0));
        }
        cancelled.delete(request.id);
        post({type: "end", id: request.id});
    } catch (error) {
        post({type: "error", id: request.id, message: error instanceof Error ? error.message : String(error)});
    }
};
