import type {SheetRow} from "../../../../client/scoring/index.ts";

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
