// A dataset's columns and what each is for (a label: the expected value, never sent to a model unless ticked as seen;
// seen by the model or not), and a sample of its rows with its count before anything runs.
import {useMemo} from "react";
import {sampleChoiceOf, sampleOf, useSampleChoices, type SampleChoice} from "./sampleChoice.ts";
import type {Dataset, Sample} from "../../../../client/experiments/types.ts";
import {defaultColumnRoles} from "./datasetModel.ts";
import {changeDataset, createDataset} from "./datasetSaves.ts";
import {describeSample, sampleIndexes} from "../../../../client/experiments/dataset.ts";
import {formatCount} from "../../../../client/experiments/metricDefinitions.ts";

const toggled = (list: readonly string[], column: string, on: boolean, order: readonly string[]) =>
    order.filter((name) => name === column ? on : list.includes(name));

export function ColumnRoles({dataset}: {dataset: Dataset}) {
    const setRole = (column: string, role: "label" | "input", on: boolean) => void changeDataset(dataset.id, (current) => {
        if (role === "input") return {fields: {inputColumns: toggled(current.inputColumns, column, on, current.columns)}};
        // Marking a label takes it out of what the model sees; it can be ticked back on purpose.
        return {fields: {
            labelColumns: toggled(current.labelColumns, column, on, current.columns),
            inputColumns: on ? current.inputColumns.filter((name) => name !== column) : current.inputColumns
        }};
    });
    const leaked = dataset.labelColumns.filter((column) => dataset.inputColumns.includes(column));
    return (
        <div className="dataset-columns">
            <table className="table compact-table" data-testid="dataset-roles">
                <thead><tr><th>Column</th><th>Type</th><th title="The expected value, which checks and metrics compare with">Label (expected)</th><th title="Sent with the row when a variant sends the row as JSON">Model sees it</th></tr></thead>
                <tbody>
                    {dataset.columns.map((column, index) => (
                        <tr key={column} data-testid="dataset-role" data-column={column}>
                            <td className="mono">{column}</td>
                            <td className="small">{dataset.columnTypes[index]}</td>
                            <td><input type="checkbox" checked={dataset.labelColumns.includes(column)} aria-label={`${column} is a label column`} data-testid="role-label"
                                onChange={(event) => setRole(column, "label", event.target.checked)} /></td>
                            <td><input type="checkbox" checked={dataset.inputColumns.includes(column)} aria-label={`The model sees ${column}`} data-testid="role-input"
                                onChange={(event) => setRole(column, "input", event.target.checked)} /></td>
                        </tr>
                    ))}
                </tbody>
            </table>
            <div className="row-gap wrap">
                <button type="button" className="btn btn-sm" data-testid="roles-default" onClick={() => void changeDataset(dataset.id, (current) => ({fields: defaultColumnRoles(current.columns)}))}>
                    Guess again from the names
                </button>
                <span className="muted small">Labels are guessed from names with label, gold, truth or expected.</span>
            </div>
            {leaked.length > 0 && (
                <div className="field-warning" role="status" data-testid="roles-leak">
                    The model sees the label column{leaked.length === 1 ? "" : "s"} {leaked.join(", ")}: it is told the expected answer.
                </div>
            )}
        </div>
    );
}

type SampleKind = Sample["kind"];

/** Picks a sample and shows how many rows it takes; the sample can be kept as a dataset of its own. */
export function SamplePanel({dataset, onCreated}: {dataset: Dataset, onCreated: (id: string | null, text: string) => void}) {
    // The choice is kept per dataset in the app's data folder: a reload finds the panel as it was left.
    const choices = useSampleChoices((state) => state.byDataset);
    const choice = sampleChoiceOf(choices, dataset);
    const {kind, n, seed, column, op, value} = choice;
    const change = (patch: Partial<SampleChoice>) => useSampleChoices.getState().set(dataset.id, {...choice, ...patch});
    const setKind = (next: SampleKind) => change({kind: next});
    const setN = (next: number) => change({n: next});
    const setSeed = (next: number) => change({seed: next});
    const setColumn = (next: string) => change({column: next});
    const setOp = (next: SampleChoice["op"]) => change({op: next});
    const setValue = (next: string) => change({value: next});
    const sample: Sample = sampleOf(choice);
    const result = useMemo(() => {
        try {
            return {indexes: sampleIndexes(dataset, sample), error: null};
        } catch (error) {
            return {indexes: [], error: (error as Error).message};
        }
        // The sample's fields are its identity; `sample` itself is new at every render.
    }, [dataset, kind, n, seed, column, op, value]);
    return (
        <div className="dataset-sample" data-testid="dataset-sample">
            <div className="row-gap wrap">
                <select className="input input-sm" value={kind} aria-label="Sample" data-testid="sample-kind" onChange={(event) => setKind(event.target.value as SampleKind)}>
                    <option value="all">Every row</option>
                    <option value="first">First N rows</option>
                    <option value="random">N random rows (seeded)</option>
                    <option value="filter">Rows matching a filter</option>
                </select>
                {(kind === "first" || kind === "random") && (
                    <input className="input input-sm sample-number" type="number" min={1} value={n} aria-label="N" data-testid="sample-n"
                        onChange={(event) => setN(Math.max(0, Math.floor(Number(event.target.value) || 0)))} />
                )}
                {kind === "random" && (
                    <label className="row-gap small">Seed
                        <input className="input input-sm sample-number" type="number" value={seed} data-testid="sample-seed" onChange={(event) => setSeed(Math.floor(Number(event.target.value) || 0))} />
                    </label>
                )}
                {kind === "filter" && <>
                    <select className="input input-sm" value={column} aria-label="Filter column" data-testid="sample-column" onChange={(event) => setColumn(event.target.value)}>
                        {dataset.columns.map((name) => <option key={name} value={name}>{name}</option>)}
                    </select>
                    <select className="input input-sm" value={op} aria-label="Filter rule" data-testid="sample-op" onChange={(event) => setOp(event.target.value as typeof op)}>
                        <option value="equals">equals</option>
                        <option value="not_equals">is not</option>
                        <option value="contains">contains</option>
                    </select>
                    <input className="input input-sm" value={value} placeholder="value" aria-label="Filter value" data-testid="sample-value" onChange={(event) => setValue(event.target.value)} />
                </>}
            </div>
            <div className="row-gap wrap">
                <span className={result.error ? "field-error" : "strong"} data-testid="sample-count" title="Rows the sample takes, of the dataset's rows">
                    {result.error ?? `${formatCount(result.indexes.length)} of ${formatCount(dataset.rows.length)} rows: ${describeSample(sample)}`}
                </span>
                <button type="button" className="btn btn-sm" data-testid="sample-keep" disabled={result.error !== null || result.indexes.length === 0}
                    onClick={async () => {
                        const created = await createDataset({...dataset, name: `${dataset.name} · ${describeSample(sample)}`, rows: result.indexes.map((index) => dataset.rows[index])});
                        onCreated(created.ok ? created.dataset.id : null, created.ok ? `Kept ${result.indexes.length} rows as "${created.dataset.name}".` : created.text);
                    }}>Keep as a new dataset</button>
            </div>
        </div>
    );
}
