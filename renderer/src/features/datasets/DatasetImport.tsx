// Making a dataset: from a CSV or XLSX file (the scoring screen's readers; an XLSX of several sheets asks which), from a
// dataset file this screen exported, or empty with named columns to fill by hand.
import {useRef, useState} from "react";
import {CsvSpreadsheet, type SpreadsheetSource} from "../../../../client/scoring/index.ts";
import type {ActionMessageValue} from "../../ui/ActionMessage.tsx";
import {loadTable, WorkerXlsxSource} from "../scoring/importSpreadsheet.ts";
import type {LoadedTable} from "../scoring/scoringStore.ts";
import {maxDatasetRows, parseDatasetFile, rowLimitProblem, uniqueColumnNames} from "./datasetModel.ts";
import {createDataset} from "./datasetSaves.ts";

type Props = {onCreated: (id: string) => void, onMessage: (message: ActionMessageValue | null) => void};

type PendingSheets = {fileName: string, source: SpreadsheetSource, sheets: string[], sheet: string};

const baseName = (fileName: string) => fileName.replace(/\.[^.]+$/, "") || fileName;

export function DatasetImport({onCreated, onMessage}: Props) {
    const sheetFile = useRef<HTMLInputElement>(null);
    const datasetFile = useRef<HTMLInputElement>(null);
    const [pending, setPending] = useState<PendingSheets | null>(null);
    const [loading, setLoading] = useState<string | null>(null);
    const [columnsText, setColumnsText] = useState("");

    const close = (source: SpreadsheetSource) => {
        if (source instanceof WorkerXlsxSource) source.close();
    };
    const keep = async (name: string, table: LoadedTable) => {
        const columns = uniqueColumnNames(table.columns);
        setLoading(`Saving ${table.rows.length.toLocaleString("en-US")} rows…`);
        // "Imported" is said once every row is committed; a failure saves none of them.
        const created = await createDataset({name, columns, rows: table.rows}).finally(() => setLoading(null));
        if (created.ok) {
            onCreated(created.dataset.id);
            onMessage({ok: true, text: `Imported ${table.rows.length.toLocaleString("en-US")} rows of ${columns.length} columns as "${name}".`});
        } else onMessage({ok: false, text: created.text});
    };
    const load = async (fileName: string, source: SpreadsheetSource, sheet: string | null) => {
        setPending(null);
        setLoading(`Reading ${fileName}…`);
        try {
            const table = await loadTable(source, fileName, {sheet, header: "auto"}, (rows) => setLoading(`Reading ${fileName}: ${rows.toLocaleString("en-US")} rows…`));
            const name = sheet === null ? baseName(fileName) : `${baseName(fileName)} · ${sheet}`;
            if (table.columns.length === 0) throw new Error(`${sheet === null ? "the file" : `the sheet ${sheet}`} holds no rows`);
            const problem = rowLimitProblem(table.rows.length);
            if (problem === null) await keep(name, table);
            else onMessage({ok: false, text: `${fileName}: ${problem}`, action: {
                label: `Keep the first ${maxDatasetRows.toLocaleString("en-US")} rows`,
                run: () => void keep(name, {...table, rows: table.rows.slice(0, maxDatasetRows)})
            }});
        } catch (error) {
            onMessage({ok: false, text: `${fileName}: ${(error as Error).message}`});
        } finally {
            setLoading(null);
            close(source);
        }
    };
    const openSheetFile = async (file: File) => {
        onMessage(null);
        const source: SpreadsheetSource = /\.xlsx$/i.test(file.name) ? new WorkerXlsxSource(file) : CsvSpreadsheet.fromBlob(file);
        try {
            const sheets = await source.sheetNames();
            if (sheets.length > 1) setPending({fileName: file.name, source, sheets, sheet: sheets[0]});
            else await load(file.name, source, sheets[0] ?? null);
        } catch (error) {
            close(source);
            onMessage({ok: false, text: `${file.name}: ${(error as Error).message}`});
        }
    };
    const openDatasetFile = async (file: File) => {
        try {
            const created = await createDataset(parseDatasetFile(await file.text()));
            if (!created.ok) throw new Error(created.text);
            onCreated(created.dataset.id);
            onMessage({ok: true, text: `Imported "${created.dataset.name}" (${created.dataset.rows.length.toLocaleString("en-US")} rows) from ${file.name}.`});
        } catch (error) {
            onMessage({ok: false, text: `${file.name}: ${(error as Error).message}`});
        }
    };
    const createEmpty = async () => {
        const columns = uniqueColumnNames(columnsText.split(",").map((name) => name.trim()).filter((name) => name !== ""));
        if (columns.length === 0) return;
        const created = await createDataset({name: "New dataset", columns, rows: []});
        if (created.ok) {
            onCreated(created.dataset.id);
            setColumnsText("");
            onMessage({ok: true, text: `Created "New dataset" with ${columns.length} column${columns.length === 1 ? "" : "s"}: add rows below.`});
        } else onMessage({ok: false, text: created.text});
    };

    return (
        <div className="dataset-import">
            <div className="row-gap wrap">
                <button type="button" className="btn btn-primary btn-sm" disabled={loading !== null} data-testid="dataset-import-sheet"
                    onClick={() => sheetFile.current?.click()}>Import CSV / XLSX…</button>
                <button type="button" className="btn btn-sm" data-testid="dataset-import-file" onClick={() => datasetFile.current?.click()}>Import dataset file…</button>
                <form className="row-gap" onSubmit={(event) => {
                    event.preventDefault();
                    createEmpty();
                }}>
                    <input className="input input-sm dataset-columns-input" value={columnsText} placeholder="Columns: question, expected" aria-label="Columns of a new empty dataset, comma separated"
                        data-testid="dataset-new-columns" onChange={(event) => setColumnsText(event.target.value)} />
                    <button type="submit" className="btn btn-sm" disabled={columnsText.trim() === ""} data-testid="dataset-new">New empty dataset</button>
                </form>
            </div>
            <input ref={sheetFile} type="file" hidden accept=".csv,.tsv,.txt,.xlsx,text/csv" data-testid="dataset-sheet-input" onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) void openSheetFile(file);
            }} />
            <input ref={datasetFile} type="file" hidden accept="application/json,.json" data-testid="dataset-file-input" onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) void openDatasetFile(file);
            }} />
            {loading && <div className="muted small" role="status" data-testid="dataset-loading">{loading}</div>}
            {pending && (
                <form className="dataset-sheet-choice" data-testid="dataset-sheet-choice" onSubmit={(event) => {
                    event.preventDefault();
                    void load(pending.fileName, pending.source, pending.sheet);
                }}>
                    <label className="small" htmlFor="dataset-sheet">{pending.fileName} has {pending.sheets.length} sheets: which one holds the rows?</label>
                    <select id="dataset-sheet" className="input input-sm" value={pending.sheet} data-testid="dataset-sheet"
                        onChange={(event) => setPending({...pending, sheet: event.target.value})}>
                        {pending.sheets.map((sheet) => <option key={sheet} value={sheet}>{sheet}</option>)}
                    </select>
                    <button type="submit" className="btn btn-primary btn-sm" data-testid="dataset-sheet-import">Import this sheet</button>
                    <button type="button" className="btn btn-sm" onClick={() => {
                        close(pending.source);
                        setPending(null);
                    }}>Cancel</button>
                </form>
            )}
        </div>
    );
}
