import {buildChatRequest} from "../chat/buildChatRequest.ts";
import {AutoTextarea} from "../components/AutoTextarea.tsx";
import {ChatReplyView} from "../components/ChatReplyView.tsx";
import {ChatSettings} from "../components/ChatSettings.tsx";
import {MessageList} from "../components/MessageList.tsx";
import {RunBar} from "../components/RunBar.tsx";
import {runChat} from "../runs/runChat.ts";
import {stopRun} from "../runs/runControllers.ts";
import {useChatStore} from "../state/useChatStore.ts";

/** Chat playground: system prompt, editable messages, the streamed reply; settings on the right. */
export function ChatScreen() {
    const systemPrompt = useChatStore((state) => state.draft.systemPrompt);
    const run = useChatStore((state) => state.run);
    const draft = useChatStore((state) => state.draft);
    const problems = Object.values(buildChatRequest(draft).errors);
    return (
        <div className="playground">
            <div className="workspace" data-testid="chat-screen">
                <div className="card system-card">
                    <label className="card-label" htmlFor="system-prompt">System prompt</label>
                    <AutoTextarea id="system-prompt" value={systemPrompt} placeholder="Optional system message" data-testid="system-prompt"
                        onChange={(event) => useChatStore.getState().setSystemPrompt(event.target.value)} />
                </div>
                <MessageList />
                <RunBar run={run} onRun={() => void runChat()} onStop={() => stopRun("chat")} disabledReason={problems.length ? problems[0] : null} />
                <ChatReplyView />
            </div>
            <ChatSettings />
        </div>
    );
}
