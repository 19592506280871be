import {parseResponseFormat} from "../chat/parseResponseFormat.ts";
import type {ResponseFormatSetting} from "../chat/types.ts";
import {editorPaths} from "../monaco/editorSchemas.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {JsonEditor} from "./JsonEditor.tsx";

const modes: Array<{id: ResponseFormatSetting["mode"], label: string}> = [
    {id: "none", label: "none"}, {id: "json_object", label: "json_object"}, {id: "json_schema", label: "json_schema"}
];

/** `response_format` (spec 2.7): none, json_object, or json_schema with `{name, schema}` edited in Monaco. */
export function ResponseFormatEditor() {
    const format = useChatStore((state) => state.draft.responseFormat);
    const stream = useChatStore((state) => state.draft.params.stream === true);
    const setFormat = useChatStore.getState().setResponseFormat;
    const parsed = parseResponseFormat(format);
    return (
        <div className="side-section">
            <h4 className="group-title">response_format</h4>
            <div className="segmented wide" role="radiogroup" aria-label="response_format" data-testid="response-format-mode">
                {modes.map((mode) => (
                    <button key={mode.id} type="button" role="radio" aria-checked={format.mode === mode.id} className={format.mode === mode.id ? "active" : ""}
                        onClick={() => setFormat({...format, mode: mode.id})}>{mode.label}</button>
                ))}
            </div>
            {format.mode === "json_schema" && (
                <JsonEditor path={editorPaths.jsonSchema} label="json_schema JSON" testId="json-schema-editor" value={format.schemaText}
                    onChange={(schemaText) => setFormat({...format, schemaText})} error={parsed.error ?? null} height={280} />
            )}
            {format.mode !== "none" && stream && (
                <div className="field-warning">JSON mode is for non-streaming chat only; with stream on the server answers 400 (spec 2.7).</div>
            )}
            <div className="param-help">
                {format.mode === "json_schema" ? "The json_schema object: {name, schema}. The schema root should be type: object." : "JSON mode makes the reply one JSON value, with no prose or code fence."}
            </div>
        </div>
    );
}
