// The Experiments screen: a dataset × two or more variants (versions on connections and models), with checks and a
// grader; set up, run with progress, read the matrix, the verdicts and the disagreements, keep, compare and export.
import {useEffect, useId} from "react";
import {TabPanel, Tabs} from "../../ui/controls.tsx";
import {ActionMessage} from "../../ui/ActionMessage.tsx";
import {DisagreementsCard} from "./Disagreements.tsx";
import {ExportsBar} from "./ExportsBar.tsx";
import {MetricsMatrix, UsageCard, VerdictsCard} from "./MetricsMatrix.tsx";
import {GraderAgreementCard} from "./GraderAgreementCard.tsx";
import {RepeatsCard} from "./RepeatsCard.tsx";
import {BaselineCard} from "./BaselineCard.tsx";
import {HistoryPanel} from "./HistoryPanel.tsx";
import {RunCard} from "./RunCard.tsx";
import {SetupPanel} from "./SetupPanel.tsx";
import {openExperiment, refreshSavedExperiments} from "./experimentRun.ts";
import {useExperimentStore, type ExperimentsTab} from "./experimentStore.ts";
import "./experiments.css";

const tabs: Array<{id: ExperimentsTab, label: string}> = [
    {id: "setup", label: "Setup"},
    {id: "results", label: "Results"},
    {id: "history", label: "History"}
];

export function ExperimentsScreen() {
    const tab = useExperimentStore((state) => state.tab);
    const set = useExperimentStore((state) => state.set);
    const error = useExperimentStore((state) => state.error);
    const importMessage = useExperimentStore((state) => state.importMessage);
    const panelId = useId();
    useEffect(() => {
        // After a reload or a restart, an experiment that stopped mid-run opens again, ready to Resume.
        void refreshSavedExperiments().then(() => {
            const {open, saved} = useExperimentStore.getState();
            const interrupted = saved.find((info) => info.status === "running" || info.status === "paused");
            if (open === null && interrupted !== undefined) void openExperiment(interrupted.id);
        });
    }, []);
    return (
        <div className="page exp-page" data-testid="experiments-screen">
            <Tabs tabs={tabs} active={tab} onChange={(next) => set({tab: next})} label="Experiment views" panelId={panelId} testId="exp-tabs" />
            {error && tab !== "setup" && <div className="field-error" role="alert" data-testid="exp-error">{error}</div>}
            {importMessage && <ActionMessage message={importMessage} onDone={(next) => set({importMessage: next})} testId="exp-import-message" />}
            <TabPanel id={panelId} active={tab}>
                {tab === "setup" && <SetupPanel />}
                {tab === "results" && <ResultsPanel />}
                {tab === "history" && <HistoryPanel />}
            </TabPanel>
        </div>
    );
}

function ResultsPanel() {
    const open = useExperimentStore((state) => state.open);
    const summary = useExperimentStore((state) => state.summary);
    const summarized = useExperimentStore((state) => state.summarizedCells);
    const set = useExperimentStore((state) => state.set);
    useExperimentStore((state) => state.countsVersion);
    if (open === null) return (
        <div className="empty-state">
            No experiment open: <button type="button" className="link-btn" onClick={() => set({tab: "setup"})}>set one up</button> or open a kept one from <button type="button" className="link-btn" onClick={() => set({tab: "history"})}>History</button>.
        </div>
    );
    return (
        <div className="exp-results" data-testid="exp-results">
            <RunCard open={open} />
            <ExportsBar open={open} summary={summary} />
            {summary !== null && summarized < open.cells.size && (
                <div className="muted small" role="status" data-testid="exp-summary-lag">
                    Figures below are from {summarized.toLocaleString("en-US")} of {open.cells.size.toLocaleString("en-US")} cells; they update every few seconds.
                </div>
            )}
            {summary === null ? <div className="muted small" data-testid="exp-summarising">Summarising…</div> : <>
                <MetricsMatrix summary={summary} />
                <RepeatsCard summary={summary} />
                <GraderAgreementCard summary={summary} />
                <VerdictsCard summary={summary} />
                <BaselineCard open={open} />
                <UsageCard summary={summary} />
                <DisagreementsCard summary={summary} open={open} />
            </>}
        </div>
    );
}
