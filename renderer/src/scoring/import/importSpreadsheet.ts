import {CsvSpreadsheet, type SpreadsheetSource} from "../../../../client/scoring/index.ts";
import {textColumn} from "../model/textColumn.ts";
import {useScoringStore} from "../state/useScoringStore.ts";
import {loadTable} from "./loadTable.ts";
import {WorkerXlsxSource} from "./WorkerXlsxSource.ts";

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
        const {mapping} = useScoringStore.getState();
        // A template naming columns this table lacks starts over from the first column.
        const keepTemplate = mapping.kind === "row" || (mapping.template !== "" && [...mapping.template.matchAll(/\{\{([^}]*)\}\}/g)].every((match) => table.columns.includes(match[1].trim())));
        const column = textColumn(table.columns, table.rows);
        useScoringStore.getState().set({table, loading: null, mapping: keepTemplate ? mapping : {kind: "template", template: column === null ? "" : `{{${column}}}`}});
    } catch (error) {
        if (mine === generation) useScoringStore.getState().set({loading: null, loadError: `${fileName}: ${(error as Error).message}`});
    }
}
