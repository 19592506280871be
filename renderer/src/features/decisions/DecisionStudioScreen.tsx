// The Decision studio screen: the builder or the compare tab, with the question set as JSON beside it.
import {useDeferredValue, useMemo} from "react";
import {JsonEditor} from "../../ui/JsonEditor.tsx";
import {Tabs} from "../../ui/controls.tsx";
import {useQuestionSetStore, questionSetTextError} from "../questionSet/questionSetStore.ts";
import {ComparePanel} from "./ComparePanel.tsx";
import {InputPanel} from "./InputPanel.tsx";
import {QuestionList} from "./QuestionList.tsx";
import {QuestionSetHeader} from "./QuestionSetHeader.tsx";
import {RunPanel} from "./RunPanel.tsx";
import {useDecisionRunStore, type StudioTab} from "./studioState.ts";
import "./decisionStudio.css";

const tabs: Array<{id: StudioTab, label: string}> = [
    {id: "build", label: "Build & run"},
    {id: "compare", label: "Compare"}
];

/** Decision studio: build a question set visually (JSON beside it), ask it about an input, compare variants. */
export function DecisionStudioScreen() {
    const tab = useDecisionRunStore((state) => state.tab);
    const set = useDecisionRunStore((state) => state.set);
    return (
        <div className="studio" data-testid="decision-studio">
            <div className="studio-main">
                <Tabs tabs={tabs} active={tab} onChange={(id) => set({tab: id})} testId="studio-tab" />
                <div className="studio-scroll">
                    <QuestionSetHeader />
                    {tab === "build"
                        ? <>
                            <QuestionList />
                            <InputPanel />
                            <RunPanel />
                        </>
                        : <>
                            <InputPanel />
                            <ComparePanel />
                        </>}
                </div>
            </div>
            <QuestionSetJsonPanel />
        </div>
    );
}

/**
 * The set as its JSON file, beside the builder and editable both ways: a builder edit rewrites the text, an
 * edit here updates the builder as soon as the text can be read (the text is then kept exactly as typed).
 */
export function QuestionSetJsonPanel() {
    const jsonText = useQuestionSetStore((state) => state.jsonText);
    const jsonError = useQuestionSetStore((state) => state.jsonError);
    const format = useQuestionSetStore((state) => state.draft.format);
    const setJsonText = useQuestionSetStore((state) => state.setJsonText);
    const deferredText = useDeferredValue(jsonText);
    const error = useMemo(() => questionSetTextError(deferredText, jsonError), [deferredText, jsonError]);
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
