import {useChatStore} from "../state/useChatStore.ts";
import {Icon} from "./Icon.tsx";
import {MessageCard} from "./MessageCard.tsx";

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
