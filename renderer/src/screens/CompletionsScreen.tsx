import {AutoTextarea} from "../components/AutoTextarea.tsx";
import {CompletionsReplyView} from "../components/CompletionsReplyView.tsx";
import {ParamsPanel} from "../components/ParamsPanel.tsx";
import {PresetPicker} from "../components/PresetPicker.tsx";
import {RunBar} from "../components/RunBar.tsx";
import {SidePanel} from "../components/SidePanel.tsx";
import {completionsParamSpecs} from "../params/completionsParamSpecs.ts";
import {stopRun} from "../runs/runControllers.ts";
import {runCompletions} from "../runs/runCompletions.ts";
import {useCompletionsStore} from "../state/useCompletionsStore.ts";

/** Legacy text completions: a prompt, its parameters, and the streamed text. */
export function CompletionsScreen() {
    const prompt = useCompletionsStore((state) => state.draft.prompt);
    const params = useCompletionsStore((state) => state.draft.params);
    const run = useCompletionsStore((state) => state.run);
    const {setPrompt, setParam, setParams} = useCompletionsStore.getState();
    return (
        <div className="playground">
            <div className="workspace" data-testid="completions-screen">
                <div className="card">
                    <label className="card-label" htmlFor="prompt">Prompt</label>
                    <AutoTextarea id="prompt" className="tall" value={prompt} placeholder="Text to continue" data-testid="completions-prompt"
                        onChange={(event) => setPrompt(event.target.value)} />
                </div>
                <RunBar run={run} onRun={() => void runCompletions()} onStop={() => stopRun("completions")} />
                <CompletionsReplyView />
            </div>
            <SidePanel>
                <div className="side-title">Parameters</div>
                <div className="side-body">
                    <PresetPicker kind="completions" params={params} onLoad={setParams} />
                    <ParamsPanel specs={completionsParamSpecs} values={params} onChange={setParam} />
                </div>
            </SidePanel>
        </div>
    );
}
