// The Decision studio screen: the builder or the compare tab, with the question set as JSON (or View code) beside it.
import {useDeferredValue, useId, useMemo} from "react";
import {useGatewayState} from "../../gateway/gatewayState.ts";
import {JsonEditor} from "../../ui/JsonEditor.tsx";
import {useNavStore} from "../../ui/appState.ts";
import {TabPanel, Tabs} from "../../ui/controls.tsx";
import {CodePanel} from "../playground/ViewCodePanel.tsx";
import {apiBaseUrl} from "../playground/viewCode.ts";
import {useQuestionSetStore, documentProblem} from "../questionSet/questionSetStore.ts";
import {useResolvedInput} from "./decisionInput.ts";
import {ComparePanel} from "./ComparePanel.tsx";
import {InputPanel} from "./InputPanel.tsx";
import {QuestionList} from "./QuestionList.tsx";
import {QuestionSetHeader} from "./QuestionSetHeader.tsx";
import {ReplaceSetDialog} from "./ReplaceSetDialog.tsx";
import {RunPanel} from "./RunPanel.tsx";
import {requestFor} from "./run.ts";
import {SaveVersionPanel} from "../versions/SaveVersionPanel.tsx";
import {useVersionOpening} from "../versions/openRequest.ts";
import {decisionPromptOfStudio, openDecisionVersion} from "./versionPrompt.ts";
import {useDecisionInputStore, useDecisionRunStore, type StudioTab} from "./studioState.ts";
import "./decisionStudio.css";

const tabs: Array<{id: StudioTab, label: string}> = [
    {id: "build", label: "Build & run"},
    {id: "compare", label: "Compare"}
];

/** Decision studio: build a question set visually (JSON beside it), ask it about an input, compare variants. */
export function DecisionStudioScreen() {
    const tab = useDecisionRunStore((state) => state.tab);
    const set = useDecisionRunStore((state) => state.set);
    const draft = useQuestionSetStore((state) => state.draft);
    const update = useQuestionSetStore((state) => state.update);
    const viewCode = useNavStore((state) => state.viewCodeOpen);
    useVersionOpening("decision", openDecisionVersion);
    const panelId = useId();
    return (
        <div className="studio" data-testid="decision-studio">
            <div className="studio-main">
                <Tabs tabs={tabs} active={tab} onChange={(id) => set({tab: id})} label="Decision studio views" panelId={panelId} testId="studio-tab" />
                <TabPanel id={panelId} active={tab} className="studio-scroll">
                    <QuestionSetHeader />
                    {tab === "build" && <section className="card studio-version-card"><SaveVersionPanel kind="decision" getPrompt={decisionPromptOfStudio} suggestedName={draft.name} /></section>}
                    {tab === "build"
                        ? <>
                            <QuestionList draft={draft} update={update} />
                            <InputPanel />
                            <RunPanel />
                        </>
                        : <>
                            <InputPanel />
                            <ComparePanel />
                        </>}
                </TabPanel>
            </div>
            {viewCode ? <DecisionCodePanel /> : <QuestionSetJsonPanel />}
            <ReplaceSetDialog />
        </div>
    );
}

/**
 * View code for the builder's set on the current input: the request Run sends any server (the local engine also gets
 * `x_svc.label_mass`, which other servers refuse, so the code leaves it out). Shown while the set or input has a
 * problem too, with the problem above it.
 */
export function DecisionCodePanel() {
    const draft = useDeferredValue(useQuestionSetStore((state) => state.draft));
    const resolved = useResolvedInput();
    const images = useDecisionInputStore((state) => state.images);
    const {data: gateway} = useGatewayState();
    const {request, problem} = useMemo(() => requestFor(draft, resolved, images.map((image) => image.dataUrl)), [draft, resolved, images]);
    if (request === null) return (
        <aside className="code-panel" data-testid="view-code-panel">
            <div className="code-panel-head"><h3>View code</h3></div>
            <div className="field-warning code-problem" data-testid="code-problem">No request to show: {problem}</div>
        </aside>
    );
    return <CodePanel request={{endpoint: request.format, baseUrl: apiBaseUrl(gateway, request.format), body: request.body}} problem={problem} />;
}

/**
 * The set as its JSON file, beside the builder and editable both ways: a builder edit rewrites the text, an
 * edit here updates the builder as soon as the text can be read (the text is then kept exactly as typed).
 */
export function QuestionSetJsonPanel() {
    const jsonText = useQuestionSetStore((state) => state.jsonText);
    const jsonError = useQuestionSetStore((state) => state.jsonError);
    const draft = useQuestionSetStore((state) => state.draft);
    const setJsonText = useQuestionSetStore((state) => state.setJsonText);
    // The problems are found on deferred copies: typing never waits for them.
    const deferredText = useDeferredValue(jsonText);
    const deferredDraft = useDeferredValue(draft);
    const error = useMemo(() => documentProblem({draft: deferredDraft, jsonText: deferredText, jsonError}), [deferredDraft, deferredText, jsonError]);
    const format = draft.format;
    return (
        <aside className="qs-json-panel" data-testid="qs-json-panel">
            <div className="side-title">
                Question set JSON <span className="mono muted small">{format === "decisions" ? "/v1/decisions" : "/v1/systemone"}</span>
            </div>
            <div className="qs-json-body">
                <JsonEditor path="inmemory://svc/question-set.json" value={jsonText} onChange={setJsonText} error={error} height={620}
                    label="Question set JSON" testId="qs-json" />
                <p className="muted small">Saved files use this text: a fixed key order and 2-space indent, so they diff cleanly.</p>
            </div>
        </aside>
    );
}
