// Datasets: the saved list (import, export, delete with Undo), and the open dataset: its name, what each column is for,
// a sample's count, its rows (edited and added in the row form), and what is wrong with it (repeated rows).
import {useEffect, useState} from "react";
import type {Dataset} from "../../../../client/experiments/types.ts";
import {downloadFile} from "../../ui/browser.ts";
import {ActionMessage, type ActionMessageValue} from "../../ui/ActionMessage.tsx";
import {Icon} from "../../ui/controls.tsx";
import {ColumnRoles, SamplePanel} from "./DatasetColumns.tsx";
import {DatasetImport} from "./DatasetImport.tsx";
import {datasetCsv, datasetJson, duplicateWarning} from "./datasetModel.ts";
import {changeDataset, deleteDataset, saveDataset} from "./datasetSaves.ts";
import {useDatasetView, useDatasetsStore, type RowsEntry} from "./datasetStore.ts";
import {RowForm} from "./RowForm.tsx";
import {RowsGrid} from "./RowsGrid.tsx";
import {useDatasetSelection} from "./selection.ts";
import "./datasets.css";

type Message = ActionMessageValue;

/** `My data!` -> `my-data`: a file name that survives every file system. */
const slug = (name: string) => name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "dataset";

export function DatasetsScreen() {
    const datasets = useDatasetsStore((state) => state.datasets);
    const selected = useDatasetSelection((state) => state.selected);
    const select = useDatasetSelection((state) => state.select);
    const [message, setMessage] = useState<Message | null>(null);
    const openId = datasets.some((item) => item.id === selected) ? selected : datasets[0]?.id ?? null;
    const view = useDatasetView(openId);
    return (
        <div className="page datasets-page" data-testid="datasets-screen">
            <section className="card">
                <div className="card-title-row"><h3>Datasets</h3></div>
                <p className="muted small">
                    Rows that experiments run on, kept on this machine. Mark the label columns (the expected values, never sent to the model unless
                    you tick them) and the columns the model sees. Add a chat run as a row from the Chat playground's reply.
                </p>
                <DatasetImport onCreated={select} onMessage={setMessage} />
                {message && <ActionMessage message={message} onDone={setMessage} testId="datasets-message" />}
                {datasets.length === 0 ? <div className="empty-state">No datasets yet.</div> : (
                    <table className="table" data-testid="datasets-table">
                        <thead><tr><th>Name</th><th>Rows</th><th>Columns</th><th>Labels</th><th><span className="sr-only">Actions</span></th></tr></thead>
                        <tbody>
                            {datasets.map((item) => (
                                <tr key={item.id} className={item.id === openId ? "is-selected" : undefined} data-testid="dataset-item" aria-selected={item.id === openId}>
                                    <td><button type="button" className="link-btn strong" onClick={() => select(item.id)}>{item.name}</button></td>
                                    <td className="mono">{item.rowCount.toLocaleString("en-US")}</td>
                                    <td className="mono">{item.columns.length}</td>
                                    <td className="small">{item.labelColumns.join(", ") || <span className="muted">none</span>}</td>
                                    <td>
                                        <button type="button" className="icon-btn danger" aria-label={`Delete dataset ${item.name}`} title="Delete (with Undo)" onClick={async () => {
                                            const removed = await deleteDataset(item.id);
                                            setMessage(removed.ok ? {ok: true, text: `Deleted "${removed.dataset.name}".`, undo: () => void saveDataset(removed.dataset, 0).then((restored) => {
                                                if (!restored.ok) setMessage({ok: false, text: restored.text});
                                            })} : {ok: false, text: removed.text});
                                        }}><Icon name="close" /></button>
                                    </td>
                                </tr>
                            ))}
                        </tbody>
                    </table>
                )}
            </section>
            {view && <OpenDataset key={view.dataset.id} dataset={view.dataset} entry={view.entry} total={view.total} onMessage={setMessage} />}
        </div>
    );
}

function OpenDataset({dataset, entry, total, onMessage}: {dataset: Dataset, entry: RowsEntry, total: number, onMessage: (message: Message) => void}) {
    const [name, setName] = useState(dataset.name);
    const [editing, setEditing] = useState<number | null>(null);
    useEffect(() => setName(dataset.name), [dataset.name]);
    // Counts over the rows wait until all of them are read: a sample's count or a repeat found in part would mislead.
    const duplicates = entry.complete ? duplicateWarning(dataset.rows) : null;
    const base = slug(dataset.name);
    return (
        <>
            <section className="card dataset-detail" data-testid="dataset-detail">
                <div className="card-title-row">
                    <input className="input dataset-name" value={name} aria-label="Dataset name" data-testid="dataset-name" onChange={(event) => setName(event.target.value)}
                        onBlur={() => name.trim() && name.trim() !== dataset.name && void changeDataset(dataset.id, () => ({fields: {name: name.trim()}}))} />
                    <div className="push-right row-gap">
                        <button type="button" className="btn btn-sm" data-testid="dataset-export-json" title="The dataset with its column types and roles, to import again or share" disabled={!entry.complete}
                            onClick={() => downloadFile(`${base}.dataset.json`, datasetJson(dataset))}>Export JSON</button>
                        <button type="button" className="btn btn-sm" data-testid="dataset-export-csv" disabled={!entry.complete} onClick={() => downloadFile(`${base}.csv`, datasetCsv(dataset), "text/csv;charset=utf-8")}>Export CSV</button>
                    </div>
                </div>
                {duplicates && <div className="field-warning" role="status" data-testid="dataset-duplicates">{duplicates}</div>}
                <div className="dataset-panels">
                    <div><h4>Columns</h4><ColumnRoles dataset={dataset} /></div>
                    <div><h4>Sample</h4>{entry.complete ? <SamplePanel dataset={dataset} onCreated={(id, text) => {
                        if (id !== null) useDatasetSelection.getState().select(id);
                        onMessage({ok: id !== null, text});
                    }} /> : <div className="muted small" role="status" data-testid="sample-reading">Reading rows: {dataset.rows.length.toLocaleString("en-US")} of {total.toLocaleString("en-US")}…</div>}</div>
                </div>
            </section>
            <section className="card">
                <div className="card-title-row"><h3>Rows</h3></div>
                {entry.error !== null && <div className="field-error" role="alert" data-testid="dataset-rows-error">{entry.error}</div>}
                <RowsGrid dataset={dataset} total={total} complete={entry.complete} editing={editing} onEdit={setEditing} onMessage={(message) => {
                    setEditing(null);
                    onMessage(message);
                }} />
                <RowForm dataset={dataset} editing={editing} onDone={() => setEditing(null)} />
            </section>
        </>
    );
}
