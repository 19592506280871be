// The JSON editor (Monaco, bundled: app/main.tsx sets it up) and the JSON Schemas it checks its models against.
import {Editor} from "@monaco-editor/react";
import {useThemeStore} from "./appState.ts";

// JSON Schemas for the JSON editors (matched by model path), so Monaco underlines shape mistakes while typing.
const functionName = {type: "string", pattern: "^[a-zA-Z0-9_-]{1,64}$"};

export const editorPaths = {
    tools: "inmemory://svc/tools.json",
    jsonSchema: "inmemory://svc/response_format.json_schema.json"
} as const;

export const editorSchemas = [
    {
        uri: "inmemory://svc/schemas/tools.json",
        fileMatch: [editorPaths.tools],
        schema: {
            type: "array",
            items: {
                type: "object",
                required: ["type", "function"],
                properties: {
                    type: {enum: ["function"]},
                    function: {
                        type: "object",
                        required: ["name"],
                        properties: {name: functionName, description: {type: "string"}, parameters: {type: "object"}, strict: {type: "boolean"}}
                    }
                }
            }
        }
    },
    {
        uri: "inmemory://svc/schemas/json_schema.json",
        fileMatch: [editorPaths.jsonSchema],
        schema: {
            type: "object",
            required: ["name"],
            properties: {name: functionName, description: {type: "string"}, schema: {type: "object"}, strict: {type: "boolean"}}
        }
    }
];

type JsonEditorProps = {
    /** Monaco model path; the JSON schemas of `editorSchemas` above are matched on it. */
    path: string,
    value: string,
    onChange: (value: string) => void,
    /** The inline error under the editor (invalid JSON, or the server's rule it breaks); null when fine. */
    error: string | null,
    height?: number,
    label: string,
    testId: string
};

/** A bundled Monaco JSON editor with the validation message shown right under it. */
export function JsonEditor({path, value, onChange, error, height = 220, label, testId}: JsonEditorProps) {
    const theme = useThemeStore((state) => state.theme);
    return (
        <div className={`json-editor${error ? " has-error" : ""}`} data-testid={testId} aria-label={label}>
            <Editor
                path={path}
                height={height}
                language="json"
                theme={theme === "dark" ? "svc-dark" : "svc-light"}
                value={value}
                onChange={(next) => onChange(next ?? "")}
                loading={<div className="editor-loading">Loading editor…</div>}
                options={{
                    minimap: {enabled: false},
                    fontSize: 12,
                    lineNumbers: "on",
                    lineNumbersMinChars: 3,
                    scrollBeyondLastLine: false,
                    automaticLayout: true,
                    tabSize: 2,
                    renderLineHighlight: "none",
                    overviewRulerLanes: 0,
                    scrollbar: {verticalScrollbarSize: 8, horizontalScrollbarSize: 8},
                    padding: {top: 8, bottom: 8}
                }}
            />
            {error
                ? <div className="field-error" role="alert" data-testid={`${testId}-error`}>{error}</div>
                : value.trim() ? <div className="field-ok" data-testid={`${testId}-ok`}>Valid</div> : null}
        </div>
    );
}
