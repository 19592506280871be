// The Experiments screen's setup: the dataset and its sample, the variants, checks and grader, and, before anything is
// sent, every problem of the setup in words, the estimate of what the run costs and what it can detect.
import {useMemo} from "react";
import type {Sample} from "../../../../client/experiments/types.ts";
import {assumedSecondsPerRequest} from "../../../../client/experiments/estimate.ts";
import {useNavStore} from "../../ui/appState.ts";
import {Icon} from "../../ui/controls.tsx";
import {useDataset, useDatasetsStore} from "../datasets/datasetStore.ts";
import {useItemVersionsStore} from "../versions/versionStore.ts";
import {ChecksCard} from "./ChecksCard.tsx";
import {VariantsCard} from "./VariantsCard.tsx";
import {buildSpec} from "./buildSpec.ts";
import {useDraftStore} from "./draftStore.ts";
import {preflight} from "./preflight.ts";
import {usePaceStore} from "./pace.ts";
import {useCacheSetting} from "./cacheSetting.ts";
import {experimentBusy, startExperiment} from "./experimentRun.ts";
import {useExperimentStore} from "./experimentStore.ts";
import {PowerEstimate} from "./PowerEstimate.tsx";
import {maxRepeats} from "../../../../client/experiments/repeats.ts";

const clusterHover = "A column whose rows belong together (a passage, a conversation, a topic, a user): intervals then resample its values instead of rows, " +
    "pass/fail differences are tested on their clustered variance, and each rate's design effect is shown. A blank cell is a cluster of its own row.";

const repeatsHover = "How many times each row is asked (chat variants at a temperature above 0): each answer is a cell of its own with its own seed; " +
    "the results show each row's repeats as one row with its spread, pass@k, pass^k and how much of the variance is the model's own noise. Question sets answer the same every time and take 1.";

export function SetupPanel() {
    const draft = useDraftStore((state) => state.draft);
    const set = useDraftStore((state) => state.set);
    const datasets = useDatasetsStore((state) => state.datasets);
    const dataset = useDataset(draft.datasetId);
    const go = useNavStore((state) => state.go);
    return (
        <div className="exp-setup" data-testid="exp-setup">
            <section className="card exp-data">
                <div className="card-title-row"><h3>Data</h3></div>
                <div className="exp-data-fields">
                    <label className="field">Name
                        <input className="input input-sm" value={draft.name} placeholder={dataset ? `${dataset.name}: A vs B` : "Experiment name"} data-testid="exp-name"
                            onChange={(event) => set({name: event.target.value})} />
                    </label>
                    <label className="field">Dataset
                        <select className="input input-sm" value={draft.datasetId ?? ""} data-testid="exp-dataset" onChange={(event) => set({datasetId: event.target.value || null})}>
                            <option value="">Choose a dataset…</option>
                            {datasets.map((item) => <option key={item.id} value={item.id}>{item.name} ({item.rowCount.toLocaleString("en-US")} rows)</option>)}
                        </select>
                    </label>
                    <SampleEditor sample={draft.sample} columns={dataset?.columns ?? []} onChange={(sample) => set({sample})} />
                    <label className="field" title={clusterHover}>Rows grouped by
                        <select className="input input-sm" value={draft.cluster ?? ""} data-testid="exp-cluster" onChange={(event) => set({cluster: event.target.value || null})}>
                            <option value="">nothing: rows are independent</option>
                            {(dataset?.columns ?? []).map((column) => <option key={column} value={column}>{column}</option>)}
                        </select>
                    </label>
                    <label className="field" title={repeatsHover}>Repeats
                        <input className="input input-sm exp-repeats-input" type="number" min={1} max={maxRepeats} step={1} value={draft.repeats ?? 1} data-testid="exp-repeats-count"
                            onChange={(event) => set({repeats: Math.min(maxRepeats, Math.max(1, Math.floor(Number(event.target.value) || 1)))})} />
                    </label>
                </div>
                {datasets.length === 0 && (
                    <div className="muted small">No dataset yet: import a CSV or XLSX on the <button type="button" className="link-btn" onClick={() => go("datasets")}>Datasets</button> screen.</div>
                )}
                {dataset && <div className="muted small" data-testid="exp-dataset-facts">Labels: {dataset.labelColumns.join(", ") || "none"} · model sees: {dataset.inputColumns.join(", ") || "no column"}</div>}
            </section>
            <VariantsCard />
            <ChecksCard columns={dataset?.columns ?? []} labelColumns={dataset?.labelColumns ?? []} />
            <StartCard />
        </div>
    );
}

type SampleEditorProps = {sample: Sample, columns: readonly string[], onChange: (sample: Sample) => void};

function SampleEditor({sample, columns, onChange}: SampleEditorProps) {
    const number = (text: string) => Math.max(1, Math.floor(Number(text) || 1));
    return (
        <div className="exp-sample" data-testid="exp-sample">
            <label className="field">Rows
                <select className="input input-sm" value={sample.kind} data-testid="exp-sample-kind" onChange={(event) => {
                    const kind = event.target.value as Sample["kind"];
                    onChange(kind === "all" ? {kind} : kind === "first" ? {kind, n: 50} : kind === "random" ? {kind, n: 50, seed: 1}
                        : {kind, column: columns[0] ?? "", op: "equals", value: ""});
                }}>
                    <option value="all">all rows</option>
                    <option value="first">the first N</option>
                    <option value="random">N at random</option>
                    <option value="filter">rows where…</option>
                </select>
            </label>
            {(sample.kind === "first" || sample.kind === "random") && (
                <label className="field">N<input className="input input-sm mono exp-n" type="number" min={1} value={sample.n} data-testid="exp-sample-n"
                    onChange={(event) => onChange({...sample, n: number(event.target.value)})} /></label>
            )}
            {sample.kind === "random" && (
                <label className="field">Seed<input className="input input-sm mono exp-n" type="number" value={sample.seed}
                    onChange={(event) => onChange({...sample, seed: Math.floor(Number(event.target.value) || 0)})} /></label>
            )}
            {sample.kind === "filter" && <>
                <label className="field">Column
                    <select className="input input-sm" value={sample.column} onChange={(event) => onChange({...sample, column: event.target.value})}>
                        {columns.map((column) => <option key={column} value={column}>{column}</option>)}
                    </select>
                </label>
                <label className="field">is
                    <select className="input input-sm" value={sample.op} onChange={(event) => onChange({...sample, op: event.target.value as typeof sample.op})}>
                        <option value="equals">equal to</option>
                        <option value="not_equals">not equal to</option>
                        <option value="contains">containing</option>
                    </select>
                </label>
                <label className="field">Value<input className="input input-sm" value={sample.value} onChange={(event) => onChange({...sample, value: event.target.value})} /></label>
            </>}
        </div>
    );
}

/** Problems, the estimate and Run: nothing is sent while a problem is listed. */
function StartCard() {
    const draft = useDraftStore((state) => state.draft);
    const dataset = useDataset(draft.datasetId);
    const busy = useExperimentStore((state) => state.busy);
    const reuseAnswers = useCacheSetting((state) => state.reuseAnswers);
    const startError = useExperimentStore((state) => state.error);
    // The variants' versions are read when first needed: the setup is built again once they are here.
    const versionsRead = useItemVersionsStore((state) => state.versions);
    const built = useMemo(() => buildSpec(draft, dataset), [draft, dataset, versionsRead]);
    // A run's measured pace changes the estimate of the same setup.
    const paces = usePaceStore((state) => state.seconds);
    const checked = useMemo(() => built.spec === null ? null : preflight(built.spec), [built, paces]);
    const problems = [...built.problems, ...checked?.problems ?? []];
    const estimate = checked?.estimate ?? null;
    return (
        <section className="card exp-start" data-testid="exp-start">
            <div className="card-title-row"><h3>Before it starts</h3></div>
            {problems.length > 0 && (
                <div role="alert" data-testid="exp-problems">
                    <ul className="field-error exp-problems">
                        {problems.map((problem) => <li key={problem}>{problem}</li>)}
                    </ul>
                </div>
            )}
            {checked?.warnings.map((warning) => <div key={warning} className="field-warning" data-testid="exp-warning">{warning}</div>)}
            {estimate && (
                <div className="stat-group" data-testid="exp-estimate">
                    <span className="stat" title="Cells: sampled rows × variants, plus one grader request per chat cell"><span className="stat-label">requests</span><span className="stat-value mono" data-testid="exp-estimate-requests">{estimate.requests.toLocaleString("en-US")}</span></span>
                    <span className="stat" title="A rough count: the filled prompts' characters / 4, plus the output budget"><span className="stat-label">≈ tokens</span><span className="stat-value mono">{estimate.tokens.toLocaleString("en-US")}</span></span>
                    <span className="stat" data-testid="exp-estimate-time-stat" title={estimate.measured
                        ? "At the requests in flight at once and the time a request took on your last run on the same connection and model"
                        : `At the requests in flight at once and an assumed ${assumedSecondsPerRequest} s a request: after a first run on this connection and model, its measured pace is used`}><span className="stat-label">≈ time</span><span className="stat-value mono">{estimate.time}</span></span>
                </div>
            )}
            {estimate && built.spec && <PowerEstimate spec={built.spec} rows={checked?.rows ?? 0} />}
            {startError && <div className="field-error" role="alert" data-testid="exp-start-error">{startError}</div>}
            <div className="row-gap">
                <label className="field exp-concurrency">In flight
                    <input className="input input-sm mono" type="number" min={1} max={32} value={draft.concurrency}
                        onChange={(event) => useDraftStore.getState().set({concurrency: Math.min(32, Math.max(1, Math.floor(Number(event.target.value) || 1)))})} />
                </label>
                <label className="check small" title="A cell whose request (prompt, parameters, connection and model) was answered before is answered from the app's response cache and not sent again; errors are never reused">
                    <input type="checkbox" data-testid="exp-reuse-answers" checked={reuseAnswers} onChange={(event) => useCacheSetting.setState({reuseAnswers: event.target.checked})} />
                    Reuse earlier answers
                </label>
                <button type="button" className="btn btn-primary push-right" data-testid="exp-run" disabled={problems.length > 0 || busy || experimentBusy()}
                    onClick={() => built.spec && void startExperiment(built.spec)}>
                    <Icon name="play" /> Run experiment
                </button>
            </div>
        </section>
    );
}
