import {AutoTextarea} from "../components/AutoTextarea.tsx";
import {ParamsPanel} from "../components/ParamsPanel.tsx";
import {PresetPicker} from "../components/PresetPicker.tsx";
import {ResponsesInputParts} from "../components/ResponsesInputParts.tsx";
import {ResponsesReplyView} from "../components/ResponsesReplyView.tsx";
import {RunBar} from "../components/RunBar.tsx";
import {SidePanel} from "../components/SidePanel.tsx";
import {responsesParamSpecs} from "../params/responsesParamSpecs.ts";
import {stopRun} from "../runs/runControllers.ts";
import {runResponses} from "../runs/runResponses.ts";
import {useResponsesStore} from "../state/useResponsesStore.ts";

/** Responses playground (spec 2.4): instructions, input parts, the events stream and the output text. */
export function ResponsesScreen() {
    const instructions = useResponsesStore((state) => state.draft.instructions);
    const params = useResponsesStore((state) => state.draft.params);
    const run = useResponsesStore((state) => state.run);
    const {setInstructions, setParam, setParams} = useResponsesStore.getState();
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
                    <PresetPicker kind="responses" params={params} onLoad={setParams} />
                    <ParamsPanel specs={responsesParamSpecs} values={params} onChange={setParam} />
                </div>
            </SidePanel>
        </div>
    );
}
