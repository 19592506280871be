// The chat playground's settings panel: parameters, tools and tool_choice, response_format.
import {useId, useState} from "react";
import {editorPaths, JsonEditor} from "../../ui/JsonEditor.tsx";
import {SidePanel, TabPanel, Tabs} from "../../ui/controls.tsx";
import {ParamsPanel} from "./ParamsPanel.tsx";
import {PresetPicker} from "./PresetPicker.tsx";
import {SaveVersionPanel} from "../versions/SaveVersionPanel.tsx";
import {chatPrompt} from "./versionPrompts.ts";
import {buildChatRequest, parseToolsText, type ToolChoiceSetting, parseResponseFormat, type ResponseFormatSetting} from "./chat.ts";
import {chatParamSpecs} from "./params.ts";
import {useChatStore} from "./stores.ts";

type Tab = "params" | "tools" | "format";

/** Parameters, tools and response format of the chat playground, as tabs. */
export function ChatSettings() {
    const [tab, setTab] = useState<Tab>("params");
    const draft = useChatStore((state) => state.draft);
    const {setParam} = useChatStore.getState();
    const {errors} = buildChatRequest(draft);
    const toolCount = draft.toolsText.trim() && !errors.tools ? (JSON.parse(draft.toolsText) as unknown[]).length : 0;
    const panelId = useId();
    return (
        <SidePanel>
            <Tabs<Tab> testId="chat-settings-tab" active={tab} onChange={setTab} label="Chat settings" panelId={panelId} tabs={[
                {id: "params", label: "Parameters"},
                {id: "tools", label: "Tools", badge: errors.tools || errors.tool_choice ? "!" : toolCount ? String(toolCount) : null},
                {id: "format", label: "Format", badge: errors.response_format ? "!" : draft.responseFormat.mode !== "none" ? "on" : null}
            ]} />
            <TabPanel id={panelId} active={tab} className="side-body">
                {tab === "params" && (
                    <>
                        <PresetPicker kind="chat" />
                        <SaveVersionPanel kind="chat" getPrompt={chatPrompt} />
                        <ParamsPanel specs={chatParamSpecs} values={draft.params} onChange={setParam} />
                    </>
                )}
                {tab === "tools" && <ToolsEditor />}
                {tab === "format" && <ResponseFormatEditor />}
            </TabPanel>
        </SidePanel>
    );
}

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
    const streamError = useChatStore((state) => buildChatRequest(state.draft).errors.stream);
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
                {forcing && streamError && <StreamOff reason="Forcing a tool call works only without streaming: Run waits until stream is off." />}
                {!missing && !(forcing && streamError) && <div className="param-help">Forcing is an instruction, not a guarantee: check the reply carries tool_calls.</div>}
            </div>
        </div>
    );
}

/** Why Run waits, with the one change that lets it go: stream off (the Parameters tab shows it too). */
function StreamOff({reason}: {reason: string}) {
    return (
        <div className="field-warning" data-testid="stream-conflict">
            {reason} <button type="button" className="link-btn" onClick={() => useChatStore.getState().setParam("stream", false)}>Turn stream off</button>
        </div>
    );
}

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
            {format.mode !== "none" && stream && <StreamOff reason="JSON mode works only without streaming: Run waits until stream is off." />}
            <div className="param-help">
                {format.mode === "json_schema" ? "The json_schema object: {name, schema}. The schema root should be type: object." : "JSON mode makes the reply one JSON value, with no prose or code fence."}
            </div>
        </div>
    );
}
