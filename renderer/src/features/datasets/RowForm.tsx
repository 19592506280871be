// The row form under a dataset's rows: one field per column, to add a row by hand or to change the row being edited
// (each value typed as its column is: a number column keeps numbers).
import {useEffect, useState} from "react";
import type {Dataset} from "../../../../client/experiments/types.ts";
import {cellText} from "../../../../client/scoring/index.ts";
import {cellFromText} from "./datasetModel.ts";
import {changeDataset} from "./datasetSaves.ts";

type Props = {dataset: Dataset, editing: number | null, onDone: () => void};

export function RowForm({dataset, editing, onDone}: Props) {
    const blank = () => dataset.columns.map(() => "");
    const [values, setValues] = useState<string[]>(blank);
    const row = editing === null ? undefined : dataset.rows[editing];
    // Opening a row for editing fills the fields with its cells; closing it empties them.
    useEffect(() => setValues(row === undefined ? dataset.columns.map(() => "") : dataset.columns.map((_, index) => cellText(row[index]))), [editing, dataset.id]);
    const empty = values.every((value) => value === "");
    const typed = () => dataset.columns.map((_, index) => cellFromText(values[index] ?? "", dataset.columnTypes[index]));
    return (
        <form className="dataset-add-row" data-testid="dataset-row-form" onSubmit={(event) => {
            event.preventDefault();
            const cells = typed();
            if (editing !== null) void changeDataset(dataset.id, () => ({edits: [{op: "set", index: editing, cells}]}));
            else if (!empty) void changeDataset(dataset.id, () => ({edits: [{op: "append", rows: [cells]}]}));
            setValues(blank());
            onDone();
        }}>
            <span className="card-label" data-testid="dataset-row-form-title">{editing === null ? "Add a row" : `Edit row ${editing + 1}`}</span>
            <div className="dataset-add-fields">
                {dataset.columns.map((column, index) => (
                    <label key={column} className="dataset-add-field">
                        <span className="small mono">{column}</span>
                        <input className="input input-sm" value={values[index] ?? ""} data-testid="dataset-add-value" data-column={column}
                            onChange={(event) => setValues(values.map((value, at) => at === index ? event.target.value : value))} />
                    </label>
                ))}
            </div>
            <div className="row-gap">
                <button type="submit" className="btn btn-sm" disabled={editing === null && empty} data-testid="dataset-add-submit">{editing === null ? "Add row" : "Save row"}</button>
                {editing !== null && <button type="button" className="btn btn-sm" data-testid="dataset-edit-cancel" onClick={onDone}>Cancel</button>}
            </div>
        </form>
    );
}
