import {useMemo, useRef} from "react";
import {rowInput} from "../model/rowInput.ts";
import {useScoringStore} from "../state/useScoringStore.ts";

/** How a row becomes the input: a template with {{column}} placeholders, or the whole row as a JSON state. */
export function InputMappingCard() {
    const table = useScoringStore((state) => state.table);
    const mapping = useScoringStore((state) => state.mapping);
    const set = useScoringStore((state) => state.set);
    const textarea = useRef<HTMLTextAreaElement>(null);
    const preview = useMemo(() => {
        if (table === null || table.rows.length === 0) return null;
        try {
            const input = rowInput(table.columns, table.rows[0], mapping);
            return {text: input.kind === "text" ? input.text : JSON.stringify(input.value, null, 2), error: null};
        } catch (error) {
            return {text: null, error: (error as Error).message};
        }
    }, [table, mapping]);
    if (table === null) return null;
    const template = mapping.kind === "template" ? mapping.template : "";
    const insert = (column: string) => {
        const element = textarea.current;
        const placeholder = `{{${column}}}`;
        const at = element?.selectionStart ?? template.length;
        const end = element?.selectionEnd ?? at;
        set({mapping: {kind: "template", template: template.slice(0, at) + placeholder + template.slice(end)}});
        requestAnimationFrame(() => {
            element?.focus();
            element?.setSelectionRange(at + placeholder.length, at + placeholder.length);
        });
    };
    return (
        <section className="card mapping-card" data-testid="mapping-card">
            <div className="card-title-row">
                <h3>2 · Input</h3>
                <div className="segmented" role="radiogroup" aria-label="Input mapping">
                    <button type="button" role="radio" aria-checked={mapping.kind === "template"} className={mapping.kind === "template" ? "active" : ""} data-testid="mapping-template-mode"
                        onClick={() => set({mapping: {kind: "template", template: template || `{{${table.columns[0] ?? ""}}}`}})}>Template</button>
                    <button type="button" role="radio" aria-checked={mapping.kind === "row"} className={mapping.kind === "row" ? "active" : ""} data-testid="mapping-row-mode"
                        onClick={() => set({mapping: {kind: "row"}})}>Whole row as JSON state</button>
                </div>
            </div>
            {mapping.kind === "template" && (
                <>
                    <textarea ref={textarea} className="input textarea mono" rows={3} value={template} aria-label="Input template" data-testid="mapping-template"
                        onChange={(event) => set({mapping: {kind: "template", template: event.target.value}})} />
                    <div className="chips column-chips">
                        {table.columns.map((column) => (
                            <button key={column} type="button" className="chip chip-button mono" title={`Insert {{${column}}}`} onClick={() => insert(column)}>{`{{${column}}}`}</button>
                        ))}
                    </div>
                </>
            )}
            {preview?.error && <div className="field-error" role="alert" data-testid="mapping-error">{preview.error}</div>}
            {preview?.text !== null && preview?.text !== undefined && (
                <div>
                    <span className="card-label">Row 1 becomes</span>
                    <pre className="small-code" data-testid="mapping-preview">{preview.text}</pre>
                </div>
            )}
        </section>
    );
}
