// Reading a CSV or XLSX file into the scoring table (an XLSX in a worker), with its sheet and header choices.
import {CsvSpreadsheet, type SpreadsheetSource, openTable, type SheetRow, typeNumberColumns, defaultRowColumns, type InputMapping} from "../../../../client/scoring/index.ts";
import {useQuestionSetStore} from "../questionSet/questionSetStore.ts";
import {textColumn} from "./scoringModel.ts";
import {useScoringStore, type LoadedTable} from "./scoringStore.ts";
import type {XlsxWorkerAnswer, XlsxWorkerRequest} from "./xlsxWorker.ts";
import XlsxWorker from "./xlsxWorker.ts?worker";

/** A picked file as a spreadsheet: XLSX by its name (read in a worker), anything else as CSV / TSV text. */
function openSource(file: File): SpreadsheetSource {
    return /\.xlsx$/i.test(file.name) ? new WorkerXlsxSource(file) : CsvSpreadsheet.fromBlob(file);
}

let generation = 0;

/** Opens a file and loads its first sheet (header detected); a later call supersedes an unfinished one. */
export async function importSpreadsheet(file: File) {
    const previous = useScoringStore.getState().source;
    if (previous instanceof WorkerXlsxSource) previous.close();
    const source = openSource(file);
    useScoringStore.getState().set({source});
    await reload(file.name, {sheet: null, header: "auto"});
}

/** Loads the current file again with another sheet or header choice. */
export async function reloadSpreadsheet(options: {sheet?: string | null, header?: "auto" | boolean}) {
    const table = useScoringStore.getState().table;
    if (table === null) return;
    await reload(table.fileName, {sheet: options.sheet === undefined ? table.sheet : options.sheet, header: options.header ?? table.header});
}

async function reload(fileName: string, options: {sheet: string | null, header: "auto" | boolean}) {
    const store = useScoringStore.getState();
    const source = store.source;
    if (source === null) return;
    const mine = ++generation;
    store.set({loading: {fileName, rows: 0}, loadError: null});
    try {
        const table = await loadTable(source, fileName, options, (rows) => {
            if (mine === generation) useScoringStore.getState().set({loading: {fileName, rows}});
        });
        if (mine !== generation) return;
        useScoringStore.getState().set({table, loading: null, mapping: mappingFor(useScoringStore.getState().mapping, table)});
    } catch (error) {
        if (mine === generation) useScoringStore.getState().set({loading: null, loadError: `${fileName}: ${(error as Error).message}`});
    }
}

/**
 * The input mapping for a newly loaded table: kept when every column it names is there; else a template starts
 * over from the text column, and whole-row mode over this table's columns less its label columns.
 */
function mappingFor(mapping: InputMapping, table: LoadedTable): InputMapping {
    if (mapping.kind === "row") {
        if ((mapping.columns ?? []).every((column) => table.columns.includes(column))) return mapping;
        return {kind: "row", columns: defaultRowColumns(useQuestionSetStore.getState().draft.questions.map((question) => question.name), table.columns)};
    }
    if (mapping.template !== "" && [...mapping.template.matchAll(/\{\{([^}]*)\}\}/g)].every((match) => table.columns.includes(match[1].trim()))) return mapping;
    const column = textColumn(table.columns, table.rows);
    return {kind: "template", template: column === null ? "" : `{{${column}}}`};
}

/**
 * Reads a sheet whole into memory, batch by batch: openTable yields to the event loop between batches (and an
 * XLSX source parses in its worker), so the page keeps painting the row count while 100,000 rows come in.
 * A CSV's number columns are then typed (typeNumberColumns).
 */
export async function loadTable(source: SpreadsheetSource, fileName: string, options: {sheet?: string | null, header: "auto" | boolean}, onRows: (count: number) => void): Promise<LoadedTable> {
    const sheets = await source.sheetNames();
    const table = await openTable(source, {sheet: options.sheet ?? undefined, header: options.header, batchRows: 2000});
    const rows: SheetRow[] = [];
    for await (const batch of table.batches()) {
        for (const row of batch.rows) rows.push(row);
        onRows(rows.length);
    }
    // XLSX cells come typed; a CSV's number columns become numbers here, once every row is in.
    if (source.format === "csv") typeNumberColumns(rows, table.columns.length);
    return {fileName, format: source.format, sheets, sheet: table.sheet, header: options.header, headerDetected: table.headerDetected, hasHeader: table.hasHeader, columns: table.columns, rows};
}

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
