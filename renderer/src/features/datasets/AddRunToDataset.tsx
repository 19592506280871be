// "Add this run as a row" under a chat reply: the request's system prompt, last user message and whole conversation, and
// the reply, as columns of a new or saved dataset (a column the dataset lacks is added), so good and bad runs become
// test cases.
import {useState} from "react";
import type {CellValue} from "../../../../client/scoring/index.ts";
import type {JsonBody} from "../../../../client/sdk/index.ts";
import {useNavStore} from "../../ui/appState.ts";
import {addRecordRows, createDataset, useDatasetsStore} from "./datasetStore.ts";
import {useDatasetSelection} from "./selection.ts";

/** A message's text: string content as is, the text parts of content given in parts. */
const textOf = (content: unknown): string => typeof content === "string" ? content
    : Array.isArray(content) ? content.filter((part: JsonBody) => typeof part.text === "string").map((part: JsonBody) => part.text as string).join("\n") : "";

/** The run as a row: `system`, `user` (the last user message), `messages` (the conversation as JSON) and `reply`. */
export function runRecord(request: JsonBody, reply: string): Record<string, CellValue> {
    const messages = Array.isArray(request.messages) ? request.messages as JsonBody[] : [];
    const system = messages.find((message) => message.role === "system");
    const user = [...messages].reverse().find((message) => message.role === "user");
    return {system: system ? textOf(system.content) : null, user: user ? textOf(user.content) : null, messages: JSON.stringify(messages), reply};
}

const newDatasetOption = "";

export function AddRunToDataset({request, reply}: {request: JsonBody | undefined, reply: string}) {
    const datasets = useDatasetsStore((state) => state.datasets);
    const [target, setTarget] = useState(newDatasetOption);
    const [message, setMessage] = useState<{ok: boolean, text: string, id?: string} | null>(null);
    if (request === undefined) return null;
    const chosen = datasets.find((item) => item.id === target);
    const add = () => {
        const record = runRecord(request, reply);
        if (chosen === undefined) {
            const columns = Object.keys(record);
            const created = createDataset({name: "Chat runs", columns, rows: [columns.map((column) => record[column])]});
            if (!created.ok) return setMessage({ok: false, text: created.text});
            setTarget(created.dataset.id);
            setMessage({ok: true, text: `Added as row 1 of the new dataset "Chat runs".`, id: created.dataset.id});
            return;
        }
        const added = addRecordRows(chosen.id, [record]);
        setMessage(added.ok ? {ok: true, text: `Added as row ${(chosen.rowCount + 1).toLocaleString("en-US")} of "${chosen.name}".`, id: chosen.id} : {ok: false, text: added.text});
    };
    return (
        <div className="add-run-row" data-testid="add-run-row">
            <select className="input input-sm" value={chosen ? target : newDatasetOption} aria-label="Dataset to add this run to" data-testid="add-run-dataset"
                onChange={(event) => setTarget(event.target.value)}>
                <option value={newDatasetOption}>New dataset</option>
                {datasets.map((item) => <option key={item.id} value={item.id}>{item.name}</option>)}
            </select>
            <button type="button" className="btn btn-sm" data-testid="add-run-button" title="The system prompt, last user message, whole conversation and reply as columns"
                onClick={add}>Add this run as a row</button>
            {message && (
                <span className={message.ok ? "field-ok" : "field-error"} role="status" data-testid="add-run-message">
                    {message.text}
                    {message.id && <> <button type="button" className="link-btn" onClick={() => {
                        useDatasetSelection.getState().select(message.id!);
                        useNavStore.getState().go("datasets");
                    }}>Open</button></>}
                </span>
            )}
        </div>
    );
}
