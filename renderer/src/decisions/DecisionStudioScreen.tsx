import {Tabs} from "../components/Tabs.tsx";
import {QuestionList} from "./builder/QuestionList.tsx";
import {QuestionSetHeader} from "./builder/QuestionSetHeader.tsx";
import {QuestionSetJsonPanel} from "./builder/QuestionSetJsonPanel.tsx";
import {ComparePanel} from "./compare/ComparePanel.tsx";
import {InputPanel} from "./input/InputPanel.tsx";
import {RunPanel} from "./run/RunPanel.tsx";
import {useDecisionRunStore, type StudioTab} from "./state/useDecisionRunStore.ts";
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
