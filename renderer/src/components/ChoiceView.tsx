import type {ChoiceState} from "../chat/replyTypes.ts";
import {useChatStore} from "../state/useChatStore.ts";
import {useStickToBottom} from "../utils/useStickToBottom.ts";
import {ReasoningSection} from "./ReasoningSection.tsx";
import {ToolCallAnswer} from "./ToolCallAnswer.tsx";

type Props = {choice: ChoiceState, showIndex: boolean, streaming: boolean, canKeep: boolean};

/** One choice of a chat reply: reasoning, answer text, tool calls, finish reason. */
export function ChoiceView({choice, showIndex, streaming, canKeep}: Props) {
    const scroll = useStickToBottom<HTMLDivElement>(choice.content);
    return (
        <div className="choice" data-testid="choice">
            <div className="choice-head">
                {showIndex && <span className="muted">choice {choice.index}</span>}
                {choice.finishReason && <span className={`badge finish-${choice.finishReason}`} data-testid="finish-reason">finish_reason: {choice.finishReason}</span>}
                {canKeep && (
                    <button type="button" className="link-btn push-right" onClick={() => useChatStore.getState().keepReply(choice.content, choice.toolCalls)}>
                        Add to conversation
                    </button>
                )}
            </div>
            <ReasoningSection reasoning={choice.reasoning} streaming={streaming} />
            {(choice.content || choice.toolCalls.length === 0) && (
                <div className="reply-text scrolling" data-testid="reply-text" ref={scroll.ref} onScroll={scroll.onScroll}>
                    {choice.content}
                    {streaming && <span className="caret" aria-hidden="true" />}
                    {!choice.content && !streaming && <span className="muted">(empty content)</span>}
                </div>
            )}
            {choice.toolCalls.map((call) => <ToolCallAnswer key={call.id || call.function.name} call={call} allCalls={choice.toolCalls} />)}
        </div>
    );
}
