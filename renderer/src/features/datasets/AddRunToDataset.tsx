// "Add this run as a row" under a chat reply: the request's system prompt, last user message and whole conversation, and
// the reply, as a row of a new dataset (one column each) or of a saved one, where the person sees and picks which
// column each goes into (none is added unless asked for), sees the row before it is added, and can undo it.
import {useState} from "react";
import type {CellValue} from "../../../../client/scoring/index.ts";
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {useNavStore} from "../../ui/appState.ts";
import {addRecordRows, createDataset, saveDataset} from "./datasetSaves.ts";
import {loadDataset, useDatasetsStore, type DatasetInfo} from "./datasetStore.ts";
import {defaultRunMapping, mappedRecord, runFields, type RunField, type RunMapping} from "./runMapping.ts";
import {useDatasetSelection} from "./selection.ts";

/** A message's text: string content as is, the text parts of content given in parts. */
const textOf = (content: unknown): string => typeof content === "string" ? content
    : Array.isArray(content) ? content.filter((part: JsonBody) => typeof part.text === "string").map((part: JsonBody) => part.text as string).join("\n") : "";

/** The run as a row: `system`, `user` (the last user message), `messages` (the conversation as JSON) and `reply`. */
export function runRecord(request: JsonBody, reply: string): Record<RunField, CellValue> {
    const messages = Array.isArray(request.messages) ? request.messages as JsonBody[] : [];
    const system = messages.find((message) => message.role === "system");
    const user = [...messages].reverse().find((message) => message.role === "user");
    return {system: system ? textOf(system.content) : null, user: user ? textOf(user.content) : null, messages: JSON.stringify(messages), reply};
}

const newDatasetOption = "";
const fieldNames: Record<RunField, string> = {system: "system prompt", user: "last user message", messages: "conversation (JSON)", reply: "reply"};
const leaveOut = "\u0000leave-out";
const newColumn = (field: RunField) => `\u0000new:${field}`;

type Message = {ok: boolean, text: string, id?: string, undo?: () => void};

export function AddRunToDataset({request, reply}: {request: JsonBody | undefined, reply: string}) {
    const datasets = useDatasetsStore((state) => state.datasets);
    const [target, setTarget] = useState(newDatasetOption);
    const [mappings, setMappings] = useState<Record<string, RunMapping>>({});
    const [message, setMessage] = useState<Message | null>(null);
    if (request === undefined) return null;
    const chosen = datasets.find((item) => item.id === target);
    const mapping = chosen === undefined ? null : mappings[chosen.id] ?? defaultRunMapping(chosen);
    const record = runRecord(request, reply);
    const add = async () => {
        if (chosen === undefined || mapping === null) {
            const columns = [...runFields];
            const created = await createDataset({name: "Chat runs", columns, rows: [columns.map((column) => record[column])]});
            if (!created.ok) return setMessage({ok: false, text: created.text});
            setTarget(created.dataset.id);
            setMessage({ok: true, text: `Added as row 1 of the new dataset "Chat runs".`, id: created.dataset.id});
            return;
        }
        const row = mappedRecord(record, mapping);
        if (Object.keys(row).length === 0) return setMessage({ok: false, text: "Every field is left out: pick a column for at least one."});
        const before = await loadDataset(chosen.id);
        const added = await addRecordRows(chosen.id, [row]);
        if (!added.ok) return setMessage({ok: false, text: added.text});
        setMessage({ok: true, text: `Added as row ${(chosen.rowCount + 1).toLocaleString("en-US")} of "${chosen.name}".`, id: chosen.id,
            undo: before === null ? undefined : async () => {
                const restored = await saveDataset({...before, updatedAt: Date.now()});
                setMessage(restored.ok ? {ok: true, text: `Undone: "${chosen.name}" is as it was.`} : {ok: false, text: restored.text});
            }});
    };
    return (
        <div className="add-run" data-testid="add-run">
            <div className="add-run-row" data-testid="add-run-row">
                <select className="input input-sm" value={chosen ? target : newDatasetOption} aria-label="Dataset to add this run to" data-testid="add-run-dataset"
                    onChange={(event) => setTarget(event.target.value)}>
                    <option value={newDatasetOption}>New dataset</option>
                    {datasets.map((item) => <option key={item.id} value={item.id}>{item.name}</option>)}
                </select>
                <button type="button" className="btn btn-sm" data-testid="add-run-button"
                    title={chosen ? "The run's fields into the columns picked below" : "A new dataset with the system prompt, last user message, conversation and reply as columns"}
                    onClick={() => void add()}>Add this run as a row</button>
                {message && (
                    <span className={message.ok ? "field-ok" : "field-error"} role="status" data-testid="add-run-message">
                        {message.text}
                        {message.undo && <> <button type="button" className="link-btn" data-testid="add-run-undo" onClick={message.undo}>Undo</button></>}
                        {message.id && <> <button type="button" className="link-btn" onClick={() => {
                            useDatasetSelection.getState().select(message.id!);
                            useNavStore.getState().go("datasets");
                        }}>Open</button></>}
                    </span>
                )}
            </div>
            {chosen && mapping && (
                <RunMappingEditor dataset={chosen} mapping={mapping} record={record}
                    onChange={(next) => setMappings((current) => ({...current, [chosen.id]: next}))} />
            )}
        </div>
    );
}

/** Which column each of the run's fields goes into, and the row as it will be added. */
function RunMappingEditor({dataset, mapping, record, onChange}: {dataset: DatasetInfo, mapping: RunMapping, record: Record<RunField, CellValue>, onChange: (mapping: RunMapping) => void}) {
    const row = mappedRecord(record, mapping);
    const added = Object.keys(row).filter((column) => !dataset.columns.includes(column));
    return (
        <div className="add-run-mapping" data-testid="add-run-mapping">
            {runFields.map((field) => {
                const column = mapping[field];
                const value = column === null ? leaveOut : dataset.columns.includes(column) ? column : newColumn(field);
                return (
                    <label key={field} className="row-gap small" data-testid="add-run-field" data-field={field}>
                        <span className="add-run-field-name">{fieldNames[field]} →</span>
                        <select className="input input-sm" value={value} aria-label={`Column for the ${fieldNames[field]}`} data-testid="add-run-column"
                            onChange={(event) => {
                                const picked = event.target.value;
                                onChange({...mapping, [field]: picked === leaveOut ? null : picked === newColumn(field) ? field : picked});
                            }}>
                            <option value={leaveOut}>leave out</option>
                            {dataset.columns.map((name) => <option key={name} value={name}>{name}{dataset.labelColumns.includes(name) ? " (label)" : ""}</option>)}
                            {!dataset.columns.includes(field) && <option value={newColumn(field)}>new column "{field}"</option>}
                        </select>
                    </label>
                );
            })}
            <div className="small muted" data-testid="add-run-preview">
                {Object.keys(row).length === 0 ? "Nothing would be added: every field is left out." : <>Adds: {Object.entries(row).map(([name, cell]) =>
                    `${name} = ${JSON.stringify(String(cell ?? "")).slice(0, 60)}`).join(" · ")}{added.length > 0 && <> · new column{added.length === 1 ? "" : "s"}: {added.join(", ")}</>}</>}
            </div>
        </div>
    );
}
