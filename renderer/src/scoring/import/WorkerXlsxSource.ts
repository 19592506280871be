import type {SheetRow, SpreadsheetSource} from "../../../../client/scoring/index.ts";
import XlsxWorker from "./xlsxWorker.ts?worker";
import type {XlsxWorkerAnswer, XlsxWorkerRequest} from "./xlsxWorkerProtocol.ts";

/**
 * An XLSX file read in a Web Worker (client/spreadsheets/XlsxSpreadsheet parses the whole workbook at once,
 * which would freeze the page for seconds on 100,000 rows). Same contract as the client's sources, so
 * openTable and the job runner use it unchanged. `close()` ends the worker.
 */
export class WorkerXlsxSource implements SpreadsheetSource {
    public readonly format = "xlsx" as const;
    private readonly worker: Worker;
    private readonly listeners = new Map<number, (answer: XlsxWorkerAnswer) => void>();
    private nextId = 1;

    public constructor(file: Blob) {
        this.worker = new XlsxWorker();
        this.worker.onmessage = (event: MessageEvent<XlsxWorkerAnswer>) => this.listeners.get(event.data.id)?.(event.data);
        this.worker.onerror = (event) => {
            for (const listener of this.listeners.values()) listener({type: "error", id: 0, message: event.message || "the XLSX reader failed"});
        };
        this.send({type: "open", file});
    }

    public sheetNames(): Promise<string[]> {
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.listeners.set(id, (answer) => {
                this.listeners.delete(id);
                if (answer.type === "sheets") resolve(answer.names);
                else reject(new Error(answer.type === "error" ? answer.message : `unexpected ${answer.type}`));
            });
            this.send({type: "sheets", id});
        });
    }

    public async *readRows(sheet?: string, chunkRows = 1000): AsyncGenerator<SheetRow[], void, undefined> {
        const id = this.nextId++;
        const queue: XlsxWorkerAnswer[] = [];
        let wake: (() => void) | null = null;
        this.listeners.set(id, (answer) => {
            queue.push(answer);
            wake?.();
        });
        this.send({type: "read", id, sheet, chunkRows});
        let finished = false;
        try {
            for (;;) {
                if (queue.length === 0) await new Promise<void>((resolve) => wake = resolve);
                wake = null;
                const answer = queue.shift()!;
                if (answer.type === "rows") yield answer.rows;
                else if (answer.type === "end") {
                    finished = true;
                    return;
                } else {
                    finished = true;
                    throw new Error(answer.type === "error" ? answer.message : `unexpected ${answer.type}`);
                }
            }
        } finally {
            this.listeners.delete(id);
            // The reader stopped early (openTable only samples the first rows): the worker can stop sending.
            if (!finished) this.send({type: "cancel", id});
        }
    }

    public close() {
        this.worker.terminate();
    }

    private send(request: XlsxWorkerRequest) {
        this.worker.postMessage(request);
    }
}
