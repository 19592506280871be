import {parseToolsText} from "../chat/parseToolsText.ts";
import type {ToolChoiceSetting} from "../chat/types.ts";
import {editorPaths} from "../monaco/editorSchemas.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {JsonEditor} from "./JsonEditor.tsx";

const example = JSON.stringify([{
    type: "function",
    function: {
        name: "get_weather",
        description: "Current weather in a city",
        parameters: {type: "object", properties: {city: {type: "string"}}, required: ["city"]}
    }
}], null, 2);

/** `tools` as JSON (validated as the server validates it) and `tool_choice` among the defined functions. */
export function ToolsEditor() {
    const toolsText = useChatStore((state) => state.draft.toolsText);
    const toolChoice = useChatStore((state) => state.draft.toolChoice);
    const stream = useChatStore((state) => state.draft.params.stream === true);
    const {setToolsText, setToolChoice} = useChatStore.getState();
    const parsed = parseToolsText(toolsText);
    const names = parsed.tools?.map((tool) => tool.function.name) ?? [];
    const forcing = toolChoice === "required" || toolChoice.startsWith("function:");
    const missing = toolChoice.startsWith("function:") && !names.includes(toolChoice.slice("function:".length));
    return (
        <div className="side-section">
            <div className="section-head">
                <h4 className="group-title">tools</h4>
                {!toolsText.trim() && <button type="button" className="link-btn" onClick={() => setToolsText(example)}>Insert example</button>}
                {toolsText.trim() && <button type="button" className="link-btn" onClick={() => setToolsText("")}>Clear</button>}
            </div>
            <JsonEditor path={editorPaths.tools} label="tools JSON" testId="tools-editor" value={toolsText} onChange={setToolsText} error={parsed.error ?? null} height={260} />
            <div className="param">
                <div className="param-head"><label className="param-label mono" htmlFor="tool-choice">tool_choice</label></div>
                <select id="tool-choice" className="input" value={toolChoice} data-testid="tool-choice"
                    onChange={(event) => setToolChoice(event.target.value as ToolChoiceSetting)}>
                    <option value="">— not sent (auto)</option>
                    <option value="auto">"auto"</option>
                    <option value="none">"none"</option>
                    <option value="required">"required"</option>
                    {names.map((name) => <option key={name} value={`function:${name}`}>{`{type: "function", function: {name: "${name}"}}`}</option>)}
                    {missing && <option value={toolChoice}>{toolChoice.slice("function:".length)} (not in tools)</option>}
                </select>
                {missing && <div className="field-error">tool_choice names a function that is not in tools</div>}
                {forcing && stream && <div className="field-warning">Forcing a tool applies to non-streaming requests only; with stream on the server answers 400 (spec 2.5).</div>}
                {!missing && !(forcing && stream) && <div className="param-help">Forcing is an instruction, not a guarantee: check the reply carries tool_calls.</div>}
            </div>
        </div>
    );
}
