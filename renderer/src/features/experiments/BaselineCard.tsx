// The open experiment against a kept earlier run pinned as its baseline: per variant and pass / fail metric, the paired
// rows that improved, regressed and stayed unchanged, with the one-sided test that this run is worse (computed by the
// summary worker with client/experiments/baseline.ts, as svc-studio eval --no-regression computes it), each column
// defined on hover. The pin is kept with the experiment, so it survives a reload.
import {useState} from "react";
import {baselineColumns, baselineRowCells, baselineRule, describeRowMatching} from "../../../../client/experiments/baselineText.ts";
import {useExperimentStore, type OpenExperiment, type SavedExperimentInfo} from "./experimentStore.ts";
import {pinBaseline} from "./baselinePin.ts";

const started = (time: number) => new Date(time).toLocaleString(undefined, {dateStyle: "short", timeStyle: "short"});

/** Kept runs started before the open one that share a variant name with it (variants are compared by name), newest first. */
function candidates(open: OpenExperiment, saved: readonly SavedExperimentInfo[]): SavedExperimentInfo[] {
    const self = saved.find((info) => info.id === open.id);
    const names = new Set(open.spec.variants.map((variant) => variant.name));
    return saved.filter((info) => info.id !== open.id && (self === undefined || info.createdAt < self.createdAt) && info.variants.some((name) => names.has(name)));
}

export function BaselineCard({open}: {open: OpenExperiment}) {
    const baseline = useExperimentStore((state) => state.baseline);
    const comparison = useExperimentStore((state) => state.baselineComparison);
    const saved = useExperimentStore((state) => state.saved);
    const busy = useExperimentStore((state) => state.busy);
    const earlier = candidates(open, saved);
    const [picked, setPicked] = useState<string>("");
    if (baseline === null && earlier.length === 0) return null;
    const choice = earlier.some((info) => info.id === picked) ? picked : earlier[0]?.id ?? "";
    return (
        <section className="card exp-baseline" data-testid="exp-baseline">
            <div className="card-title-row">
                <h3>Against a baseline</h3>
                <span className="muted small exp-metric-name" title={baselineRule} data-testid="exp-baseline-rule">how a regression is found</span>
            </div>
            {baseline === null ? (
                <div className="exp-baseline-pick">
                    <label className="small">Earlier run
                        <select value={choice} onChange={(event) => setPicked(event.target.value)} data-testid="exp-baseline-pick">
                            {earlier.map((info) => <option key={info.id} value={info.id}>{info.name} · {started(info.createdAt)}{info.status === "completed" ? "" : ` (${info.status})`}</option>)}
                        </select>
                    </label>
                    <button type="button" className="btn btn-sm" disabled={busy || choice === ""} data-testid="exp-baseline-pin" onClick={() => void pinBaseline(choice)}
                        title="Keep this earlier run as the one this experiment is compared with; kept with the experiment">Pin as baseline</button>
                </div>
            ) : (
                <div className="exp-baseline-pinned" data-testid="exp-baseline-pinned">
                    <span className="small">Baseline: <strong>{baseline.name ?? baseline.id}</strong>{baseline.createdAt === null ? "" : ` · started ${started(baseline.createdAt)}`}</span>
                    <button type="button" className="btn btn-sm btn-ghost" data-testid="exp-baseline-unpin" onClick={() => void pinBaseline(null)}>Unpin</button>
                </div>
            )}
            {baseline?.problem && <div className="field-warning" data-testid="exp-baseline-problem">The baseline cannot be read: {baseline.problem}</div>}
            {baseline !== null && baseline.problem === null && <Comparison comparison={comparison} />}
        </section>
    );
}

function Comparison({comparison}: {comparison: ReturnType<typeof useExperimentStore.getState>["baselineComparison"]}) {
    if (comparison === null) return <div className="muted small" data-testid="exp-baseline-testing">Testing against the baseline…</div>;
    if ("error" in comparison) return <div className="field-warning" data-testid="exp-baseline-problem">Not tested: {comparison.error}</div>;
    return (
        <>
            <div className="muted small" data-testid="exp-baseline-matching" title={baselineRule}>{describeRowMatching(comparison)}.</div>
            <div className="table-scroll" tabIndex={0} role="region" aria-label="This run against the baseline, per metric">
                <table className="table compact">
                    <thead>
                        <tr>{baselineColumns.map((column) => <th key={column.label} scope="col" title={column.definition} className={`exp-metric-name${column.label === "Metric" || column.label === "Verdict" ? "" : " num"}`}>{column.label}</th>)}</tr>
                    </thead>
                    <tbody>
                        {comparison.tests.map((test) => (
                            <tr key={`${test.variant}\u0000${test.metric}\u0000${test.question ?? ""}`} data-testid="exp-baseline-row" data-regressed={test.significant}
                                className={test.significant ? "is-regressed" : undefined}>
                                {baselineRowCells(test).map((text, index) => index === 0
                                    ? <th key={baselineColumns[index].label} scope="row" title={baselineColumns[index].definition}>{text}</th>
                                    : <td key={baselineColumns[index].label} className={baselineColumns[index].label === "Verdict" ? "exp-baseline-verdict" : "num mono"} title={baselineColumns[index].definition}>{text}</td>)}
                            </tr>
                        ))}
                    </tbody>
                </table>
            </div>
        </>
    );
}
