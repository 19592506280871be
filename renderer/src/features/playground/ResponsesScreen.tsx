// The Responses playground: instructions, input parts, the output text and the events as they arrive.
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {WorkspaceKeyAdvice} from "../workspace/appKey.tsx";
import {AutoTextarea, SidePanel, Icon} from "../../ui/controls.tsx";
import {ImageAttachButton} from "../../ui/images.tsx";
import {ImageSupportNote, imageSupport} from "../../ui/imageSupport.tsx";
import {activeConnection, useGatewayState} from "../../gateway/gatewayState.ts";
import {ParamsPanel} from "./ParamsPanel.tsx";
import {PresetPicker} from "./PresetPicker.tsx";
import {SaveVersionPanel} from "../versions/SaveVersionPanel.tsx";
import {useVersionOpening} from "../versions/openRequest.ts";
import {openResponsesVersion, responsesPrompt} from "./versionPrompts.ts";
import {responsesParamSpecs} from "./params.ts";
import {type ResponsesReply, outputTokensOf} from "./responses.ts";
import {RunBar, useRevealWhenRunning, useStickToBottom, ReasoningSection, RunStats, WaitingForOutput} from "./runViews.tsx";
import {stoppedText, stopRun} from "./runs.ts";
import {runResponses, useResponsesStore} from "./stores.ts";
import {TokenProbabilities} from "./TokenProbabilities.tsx";

/** Responses playground (spec 2.4): instructions, input parts, the events stream and the output text. */
export function ResponsesScreen() {
    const instructions = useResponsesStore((state) => state.draft.instructions);
    const params = useResponsesStore((state) => state.draft.params);
    const run = useResponsesStore((state) => state.run);
    const {setInstructions, setParam} = useResponsesStore.getState();
    useVersionOpening("responses", openResponsesVersion);
    return (
        <div className="playground">
            <div className="workspace" data-testid="responses-screen">
                <div className="card">
                    <label className="card-label" htmlFor="instructions">Instructions</label>
                    <AutoTextarea id="instructions" value={instructions} placeholder="System-level guidance applied ahead of the input" data-testid="instructions"
                        onChange={(event) => setInstructions(event.target.value)} />
                </div>
                <ResponsesInputParts />
                <RunBar run={run} onRun={() => void runResponses()} onStop={() => stopRun("responses")} />
                <ResponsesReplyView />
            </div>
            <SidePanel>
                <div className="side-title">Parameters</div>
                <div className="side-body">
                    <PresetPicker kind="responses" />
                    <SaveVersionPanel kind="responses" getPrompt={responsesPrompt} />
                    <ParamsPanel specs={responsesParamSpecs} values={params} onChange={setParam} />
                </div>
            </SidePanel>
        </div>
    );
}

/** The user input of a Responses request: `input_text` and `input_image` parts, in order. */
export function ResponsesInputParts() {
    const parts = useResponsesStore((state) => state.draft.parts);
    const {setPartText, removePart, addTextPart, addImageParts} = useResponsesStore.getState();
    const {data: gateway} = useGatewayState();
    return (
        <div className="card">
            <div className="card-label">Input (user message parts)</div>
            <div className="parts">
                {parts.map((part) => (
                    <div className="part" key={part.id} data-testid="responses-part">
                        <span className="badge mono">{part.type}</span>
                        {part.type === "input_text"
                            ? <AutoTextarea value={part.text} placeholder="Text" aria-label="input_text" data-testid="responses-text"
                                onChange={(event) => setPartText(part.id, event.target.value)} />
                            : <figure className="image-preview inline" data-testid="image-preview"><img src={part.dataUrl} alt={part.name} /><figcaption>{part.name} · detail: auto</figcaption></figure>}
                        <button type="button" className="icon-btn danger" aria-label="Remove part" onClick={() => removePart(part.id)}><Icon name="close" /></button>
                    </div>
                ))}
            </div>
            <div className="message-foot">
                <button type="button" className="btn btn-ghost btn-sm" onClick={addTextPart}><Icon name="plus" /> Text part</button>
                <ImageAttachButton testId="responses-image-input" label="Image part" onImages={addImageParts} />
            </div>
            <ImageSupportNote support={imageSupport(gateway?.engine, activeConnection(gateway))} imageCount={parts.filter((part) => part.type === "input_image").length} />
        </div>
    );
}

export function ResponsesReplyView() {
    const reply = useResponsesStore((state) => state.reply);
    const run = useResponsesStore((state) => state.run);
    const reveal = useRevealWhenRunning<HTMLElement>(run.status);
    const scroll = useStickToBottom<HTMLDivElement>(reply.outputText);
    if (run.status === "idle") return <div className="reply-empty muted">Run to see the events and the output text here.</div>;
    const streaming = run.status === "running";
    return (
        <section className="reply card" data-testid="responses-reply" ref={reveal}>
            <div className="reply-title">
                <h3>Output</h3>
                {reply.status && <span className="badge">status: {reply.status}</span>}
                {run.status === "stopped" && <span className="badge badge-warn">{stoppedText(run)} · partial output</span>}
            </div>
            {streaming && reply.outputText === "" && reply.reasoningText === "" && <WaitingForOutput run={run} />}
            <ReasoningSection reasoning={reply.reasoningText} streaming={streaming} />
            <div className="reply-text scrolling" data-testid="responses-output" ref={scroll.ref} onScroll={scroll.onScroll} tabIndex={0} role="region" aria-label="Output text">
                {reply.outputText}
                {streaming && <span className="caret" aria-hidden="true" />}
            </div>
            {!streaming && <TokenProbabilities scores={outputTokensOf(reply.response)} usage={reply.usage} />}
            <EventsList reply={reply} />
            {run.error && <><ApiErrorView error={run.error} /><WorkspaceKeyAdvice error={run.error} /></>}
            {!streaming && <RunStats run={run} usage={reply.usage} />}
        </section>
    );
}

/** The Responses events as they arrived (spec 6.2), newest at the bottom. */
export function EventsList({reply}: {reply: ResponsesReply}) {
    const scroll = useStickToBottom<HTMLDivElement>(reply.eventCount);
    if (reply.eventCount === 0) return null;
    const hidden = reply.eventCount - reply.events.length;
    return (
        <details className="events" open data-testid="responses-events">
            <summary>Events <span className="muted">· {reply.eventCount}</span></summary>
            <div className="events-list" ref={scroll.ref} onScroll={scroll.onScroll}>
                {hidden > 0 && <div className="muted small">… {hidden} earlier events not shown</div>}
                {reply.events.map((row) => (
                    <div className="event-row mono" key={row.seq}>
                        <span className="event-seq">{row.seq}</span>
                        <span className={`event-type${row.type.endsWith(".delta") ? " delta" : ""}`}>{row.type}</span>
                        <span className="event-summary">{row.summary}</span>
                    </div>
                ))}
            </div>
        </details>
    );
}
