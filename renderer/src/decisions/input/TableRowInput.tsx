import {useNavStore} from "../../state/useNavStore.ts";
import {useScoringStore} from "../../scoring/state/useScoringStore.ts";
import {useDecisionInputStore} from "../state/useDecisionInputStore.ts";
import {useResolvedInput} from "./useResolvedInput.ts";

/** A row of the table loaded on the scoring screen, mapped into the input as a scoring job would map it. */
export function TableRowInput() {
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    const rowIndex = useDecisionInputStore((state) => state.rowIndex);
    const set = useDecisionInputStore((state) => state.set);
    const resolved = useResolvedInput();
    const go = useNavStore((state) => state.go);
    if (table === null) return (
        <div className="empty-state small">
            No table loaded. <button type="button" className="link-btn" onClick={() => go("scoring")}>Import a CSV or XLSX file</button> on the Scoring screen.
        </div>
    );
    return (
        <div className="table-row-input">
            <div className="row-gap">
                <label className="row-gap small">Row
                    <input className="input input-sm" type="number" min={1} max={table.rows.length} value={rowIndex + 1} data-testid="input-row-index"
                        onChange={(event) => set({rowIndex: Math.floor(Number(event.target.value)) - 1})} />
                </label>
                <span className="muted small">of {table.rows.length.toLocaleString("en-US")} in {table.fileName}
                    {" · "}{mapping.kind === "row" ? "whole row as JSON state" : "mapped by the scoring template"}</span>
            </div>
            {resolved.input === null
                ? <div className="field-error" role="alert">{resolved.error}</div>
                : <pre className="small-code" data-testid="input-row-preview">{resolved.input.kind === "text" ? resolved.input.text : JSON.stringify(resolved.input.value, null, 2)}</pre>}
        </div>
    );
}
