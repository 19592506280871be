// The chat playground: system prompt, the editable conversation, Run, the reply; settings on the right.
import {AutoTextarea, Icon} from "../../ui/controls.tsx";
import {ImageAttachButton, ImagePreviews} from "../../ui/images.tsx";
import {ImageSupportNote, imageSupport} from "../../ui/imageSupport.tsx";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {ChatReplyView} from "./ChatReplyView.tsx";
import {ChatSettings} from "./ChatSettings.tsx";
import {buildChatRequest, type DraftMessage, type DraftRole} from "./chat.ts";
import {RunBar} from "./runViews.tsx";
import {stopRun} from "./runs.ts";
import {runChat, useChatStore} from "./stores.ts";
import {useVersionOpening} from "../versions/openRequest.ts";
import {openChatVersion} from "./versionPrompts.ts";

/** Chat playground: system prompt, editable messages, the streamed reply; settings on the right. */
export function ChatScreen() {
    const systemPrompt = useChatStore((state) => state.draft.systemPrompt);
    const run = useChatStore((state) => state.run);
    const draft = useChatStore((state) => state.draft);
    const {errors} = buildChatRequest(draft);
    const problems = Object.values(errors);
    const {data: gateway} = useGatewayState();
    const imageCount = draft.messages.reduce((count, message) => count + message.images.length, 0);
    useVersionOpening("chat", openChatVersion);
    return (
        <div className="playground">
            <div className="workspace" data-testid="chat-screen">
                <div className="card system-card">
                    <label className="card-label" htmlFor="system-prompt">System prompt</label>
                    <AutoTextarea id="system-prompt" value={systemPrompt} placeholder="Optional system message" data-testid="system-prompt"
                        onChange={(event) => useChatStore.getState().setSystemPrompt(event.target.value)} />
                </div>
                <MessageList />
                <ImageSupportNote support={imageSupport(gateway?.engine, activeConnection(gateway))} imageCount={imageCount} />
                <RunBar run={run} onRun={() => void runChat()} onStop={() => stopRun("chat")} disabledReason={problems.length ? problems[0] : null}
                    actions={errors.stream && problems.length === 1 && (
                        <button type="button" className="btn" data-testid="stream-off-button" title="Sets stream to false in the Parameters tab"
                            onClick={() => useChatStore.getState().setParam("stream", false)}>Turn stream off</button>
                    )} />
                <ChatReplyView />
            </div>
            <ChatSettings />
        </div>
    );
}

/** The conversation being sent, in order. */
export function MessageList() {
    const messages = useChatStore((state) => state.draft.messages);
    const addMessage = useChatStore((state) => state.addMessage);
    return (
        <div className="message-list">
            {messages.map((message, index) => <MessageCard key={message.id} message={message} index={index} count={messages.length} />)}
            <button type="button" className="btn btn-dashed" onClick={() => addMessage()} data-testid="add-message"><Icon name="plus" /> Add message</button>
        </div>
    );
}

type MessageCardProps = {message: DraftMessage, index: number, count: number};

const roles: DraftRole[] = ["user", "assistant", "system", "tool"];

/** One editable message of the conversation: role, text, images, tool fields, and reorder/delete. */
export function MessageCard({message, index, count}: MessageCardProps) {
    const {updateMessage, removeMessage, moveMessage, addImages, removeImage} = useChatStore.getState();
    return (
        <div className={`message-card role-${message.role}`} data-testid="message-card">
            <div className="message-head">
                <select className="role-select" value={message.role} aria-label="Role" data-testid="message-role"
                    onChange={(event) => updateMessage(message.id, {role: event.target.value as DraftRole})}>
                    {roles.map((role) => <option key={role} value={role}>{role}</option>)}
                </select>
                {message.role === "tool" && (
                    <input className="input input-sm mono tool-call-id" placeholder="tool_call_id" value={message.toolCallId ?? ""} aria-label="tool_call_id"
                        onChange={(event) => updateMessage(message.id, {toolCallId: event.target.value})} />
                )}
                <div className="message-actions">
                    <button type="button" className="icon-btn" aria-label="Move up" title="Move up" disabled={index === 0} onClick={() => moveMessage(message.id, -1)}><Icon name="up" /></button>
                    <button type="button" className="icon-btn" aria-label="Move down" title="Move down" disabled={index === count - 1} onClick={() => moveMessage(message.id, 1)}><Icon name="down" /></button>
                    <button type="button" className="icon-btn danger" aria-label="Delete message" title="Delete" onClick={() => removeMessage(message.id)}><Icon name="close" /></button>
                </div>
            </div>
            <AutoTextarea value={message.content} placeholder={placeholder(message)} aria-label={`${message.role} message`} data-testid="message-content"
                onChange={(event) => updateMessage(message.id, {content: event.target.value})} />
            {message.toolCalls && message.toolCalls.length > 0 && (
                <div className="message-tool-calls">
                    {message.toolCalls.map((call) => (
                        <div key={call.id} className="tool-call-line mono"><span className="badge">tool call</span> {call.function.name}({call.function.arguments}) <span className="muted">{call.id}</span></div>
                    ))}
                </div>
            )}
            <ImagePreviews images={message.images} onRemove={(imageId) => removeImage(message.id, imageId)} />
            {message.role === "user" && (
                <div className="message-foot">
                    <ImageAttachButton testId="attach-image-input" onImages={(images) => addImages(message.id, images)} />
                </div>
            )}
        </div>
    );
}

function placeholder(message: DraftMessage): string {
    if (message.role === "tool") return "Tool result (string content)";
    if (message.role === "assistant") return message.toolCalls?.length ? "(content null: tool calls only)" : "Assistant reply";
    return `${message.role[0].toUpperCase()}${message.role.slice(1)} message`;
}
