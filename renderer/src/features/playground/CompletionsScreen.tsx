// The legacy completions playground: a prompt, its parameters and the streamed text; "Score this text" shades the
// prompt's own tokens instead.
import {ApiErrorView} from "../../ui/ApiErrorView.tsx";
import {WorkspaceKeyAdvice} from "../workspace/appKey.tsx";
import {AutoTextarea, SidePanel} from "../../ui/controls.tsx";
import {ParamsPanel} from "./ParamsPanel.tsx";
import {PresetPicker} from "./PresetPicker.tsx";
import {completionsParamSpecs} from "./params.ts";
import {RunBar, useRevealWhenRunning, RunStats, WaitingForOutput} from "./runViews.tsx";
import {stoppedText, stopRun} from "./runs.ts";
import {logitBiasAdder, runCompletions, scoreCompletionsPrompt, useCompletionsStore} from "./stores.ts";
import {isScoreRequest} from "./completions.ts";
import {TokenProbabilities} from "./TokenProbabilities.tsx";

/** Legacy text completions: a prompt, its parameters, and the streamed text. */
export function CompletionsScreen() {
    const prompt = useCompletionsStore((state) => state.draft.prompt);
    const params = useCompletionsStore((state) => state.draft.params);
    const run = useCompletionsStore((state) => state.run);
    const {setPrompt, setParam} = useCompletionsStore.getState();
    return (
        <div className="playground">
            <div className="workspace" data-testid="completions-screen">
                <div className="card">
                    <label className="card-label" htmlFor="prompt">Prompt</label>
                    <AutoTextarea id="prompt" className="tall" value={prompt} placeholder="Text to continue" data-testid="completions-prompt"
                        onChange={(event) => setPrompt(event.target.value)} />
                </div>
                <RunBar run={run} onRun={() => void runCompletions()} onStop={() => stopRun("completions")} actions={(
                    <button type="button" className="btn" onClick={() => void scoreCompletionsPrompt()} data-testid="score-text-button"
                        title="Shade the prompt's own tokens by how likely the model finds them (echo with max_tokens 0; nothing is generated)">
                        Score this text
                    </button>
                )} />
                <CompletionsReplyView />
            </div>
            <SidePanel>
                <div className="side-title">Parameters</div>
                <div className="side-body">
                    <PresetPicker kind="completions" />
                    <ParamsPanel specs={completionsParamSpecs} values={params} onChange={setParam} />
                </div>
            </SidePanel>
        </div>
    );
}

const addCompletionsLogitBias = logitBiasAdder(useCompletionsStore);

export function CompletionsReplyView() {
    const reply = useCompletionsStore((state) => state.reply);
    const run = useCompletionsStore((state) => state.run);
    const reveal = useRevealWhenRunning<HTMLElement>(run.status);
    if (run.status === "idle") return <div className="reply-empty muted">Run to see the completion here.</div>;
    const streaming = run.status === "running";
    // Scoring the prompt asks for no output (echo, max_tokens 0): its finish_reason "length" says nothing about the text.
    const scoring = isScoreRequest(run.request);
    return (
        <section className="reply card" data-testid="completions-reply" ref={reveal}>
            <div className="reply-title">
                <h3>{scoring ? "Prompt scores" : "Completion"}</h3>
                {scoring && <span className="muted small" data-testid="score-note">the prompt's own tokens, each given what comes before it; nothing is generated</span>}
                {run.status === "stopped" && <span className="badge badge-warn">{stoppedText(run)} · partial text</span>}
            </div>
            {reply.choices.length === 0 && streaming && <WaitingForOutput run={run} />}
            {reply.choices.map((choice) => (
                <div className="choice" key={choice.index}>
                    <div className="choice-head">
                        {reply.choices.length > 1 && <span className="muted">choice {choice.index}</span>}
                        {choice.finishReason && !scoring && <span className="badge" data-testid="completion-finish-reason">finish_reason: {choice.finishReason}</span>}
                    </div>
                    <div className="reply-text" data-testid="completion-text">
                        {choice.content}
                        {streaming && choice.finishReason === null && <span className="caret" aria-hidden="true" />}
                    </div>
                    {!streaming && <TokenProbabilities scores={choice.tokens} onBias={addCompletionsLogitBias} usage={reply.usage} choices={reply.choices.length}
                        echoed={run.request?.echo === true} />}
                </div>
            ))}
            {run.error && <><ApiErrorView error={run.error} /><WorkspaceKeyAdvice error={run.error} /></>}
            {!streaming && <RunStats run={run} usage={reply.usage} />}
        </section>
    );
}
