import {useState} from "react";
import {buildChatRequest} from "../chat/buildChatRequest.ts";
import {chatParamSpecs} from "../params/chatParamSpecs.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {ParamsPanel} from "./ParamsPanel.tsx";
import {PresetPicker} from "./PresetPicker.tsx";
import {ResponseFormatEditor} from "./ResponseFormatEditor.tsx";
import {SidePanel} from "./SidePanel.tsx";
import {Tabs} from "./Tabs.tsx";
import {ToolsEditor} from "./ToolsEditor.tsx";

type Tab = "params" | "tools" | "format";

/** Parameters, tools and response format of the chat playground, as tabs. */
export function ChatSettings() {
    const [tab, setTab] = useState<Tab>("params");
    const draft = useChatStore((state) => state.draft);
    const {setParam, setParams} = useChatStore.getState();
    const {errors} = buildChatRequest(draft);
    const toolCount = draft.toolsText.trim() && !errors.tools ? (JSON.parse(draft.toolsText) as unknown[]).length : 0;
    return (
        <SidePanel>
            <Tabs<Tab> testId="chat-settings-tab" active={tab} onChange={setTab} tabs={[
                {id: "params", label: "Parameters"},
                {id: "tools", label: "Tools", badge: errors.tools || errors.tool_choice ? "!" : toolCount ? String(toolCount) : null},
                {id: "format", label: "Format", badge: errors.response_format ? "!" : draft.responseFormat.mode !== "none" ? "on" : null}
            ]} />
            <div className="side-body">
                {tab === "params" && (
                    <>
                        <PresetPicker kind="chat" params={draft.params} onLoad={setParams} />
                        <ParamsPanel specs={chatParamSpecs} values={draft.params} onChange={setParam} />
                    </>
                )}
                {tab === "tools" && <ToolsEditor />}
                {tab === "format" && <ResponseFormatEditor />}
            </div>
        </SidePanel>
    );
}
